import { topics } from '@engage/contracts';
import { connectServiceKafka, startOutboxRelay } from '@engage/kafka';
import { internalVerifierOf, listen, type ServiceContext } from '@engage/kit';
import { pingPool, warnIfAutovacuumOff } from '@engage/postgres';
import { buildApp } from './app.ts';
import { createMarketplaceCatalog } from './application/marketplace-catalog.ts';
import { createWriteQueue } from './application/write-queue.ts';
import { startRewardGrantsConsumer } from './consumers/reward-grants.ts';
import type { LedgerEnv } from './env.ts';
import { createLedgerPool } from './store/pool.ts';

/** Composition root: Postgres, the Kafka producer and outbox relay, the rewards consumer, the HTTP API. */
export async function startLedger(ctx: ServiceContext<LedgerEnv>): Promise<void> {
  const { env, log, lifecycle } = ctx;
  const pool = createLedgerPool({ url: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, log });
  lifecycle.onShutdown('postgres', () => pool.end());
  void warnIfAutovacuumOff(pool, log);

  const kafka = await connectServiceKafka(env, 'ledger', log, {
    writes: [topics.pointsJournal, topics.shopPurchases],
  });

  // Publishes the journal records each committed change enqueued; on shutdown it drains first. It
  // lingers after a partial batch, so under load one send (and its reads and deletes) carries many
  // records rather than a few, which costs less CPU per write.
  const relay = startOutboxRelay({ pool, kafka, log, topicPrefix: env.KAFKA_TOPIC_PREFIX, lingerMs: 20 });
  lifecycle.onShutdown('outbox relay', () => relay.stop());

  // Joining the consumer group can wait out a crashed predecessor's session (KAFKA_SESSION_TIMEOUT_MS);
  // the API does not wait for it. A consumer that cannot start stops the process.
  const rewards = startRewardGrantsConsumer({
    kafka,
    pool,
    log,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    onJournalCommitted: relay.kick,
    onStopped: (err) => lifecycle.fail('the rewards consumer stopped', err),
  });
  lifecycle.onShutdown('rewards consumer', async () => (await rewards).stop());
  rewards.catch((err: unknown) => lifecycle.fail('the rewards consumer failed to start', err));

  const app = buildApp({
    log,
    pool,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    onJournalCommitted: relay.kick,
    // At least one connection stays for reads, the rewards consumer and the outbox relay.
    batcher: createWriteQueue(pool, {
      topicPrefix: env.KAFKA_TOPIC_PREFIX,
      maxBatch: env.PLAYER_BATCH_MAX,
      batchesInFlight: Math.max(1, Math.min(env.WRITE_BATCHES_IN_FLIGHT, env.DATABASE_POOL_SIZE - 1)),
    }),
    marketplace: createMarketplaceCatalog(pool),
    readiness: () => pingPool(pool),
    verifier: internalVerifierOf(env),
  });
  await listen(app, ctx);
}
