import { topics } from '@engage/contracts';
import { connectServiceKafka, startOutboxRelay } from '@engage/kafka';
import { internalVerifierOf, listen, type ServiceContext } from '@engage/kit';
import { createPool, warnIfAutovacuumOff } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { buildApp } from './app.ts';
import { NameCache, TopCache } from './application/reading/read-caches.ts';
import type { BoardMirrorDeps } from './application/scoring/mirror.ts';
import { startMirrorSweeper } from './application/scoring/sweeper.ts';
import { startSettler } from './application/settlement/settler.ts';
import { startEventsConsumer } from './consumers/events.ts';
import type { QueryEnv } from './env.ts';
import { DefinitionCache } from './store/definitions.ts';

/**
 * Starts the query service in its QUERY_ROLE: `reads` serves the HTTP API only; `updates` applies
 * the events topic, sweeps the mirror, settles and publishes; `all` does both.
 */
export async function startQuery(ctx: ServiceContext<QueryEnv>): Promise<void> {
  const { env, log, lifecycle } = ctx;
  // Pipeline mode: statements a use case sends without waiting go in one round trip (applying
  // events sends the totals upsert and the first scoring statement together).
  const pool = createPool({
    url: env.DATABASE_URL,
    schema: 'query',
    max: env.DATABASE_POOL_SIZE,
    log,
    pipeline: true,
  });
  lifecycle.onShutdown('postgres', () => pool.end());
  void warnIfAutovacuumOff(pool, log);
  const redis = createRedis(env.REDIS_URL, { connectionName: 'query' });
  lifecycle.onShutdown('redis', async () => {
    await redis.quit();
  });
  const definitions = new DefinitionCache(pool, env.DEFINITIONS_CACHE_MS);
  const mirror = { pool, redis, keyPrefix: env.REDIS_KEY_PREFIX, log, definitions };
  const updates = env.QUERY_ROLE === 'reads' ? undefined : await startUpdates(ctx, mirror);

  const caches = {
    top: new TopCache(env.LEADERBOARD_TOP_CACHE_MS),
    names: new NameCache(env.DISPLAY_NAMES_CACHE_MS),
  };
  // A read-only replica's sandbox settlements wait for an updates replica's relay to publish them.
  const published = updates?.published ?? (() => {});
  const verifier = internalVerifierOf(env);
  await listen(
    buildApp({ ...mirror, topicPrefix: env.KAFKA_TOPIC_PREFIX, published, caches, verifier }),
    ctx,
  );
}

/** The update work: events consumer, mirror sweeper, settler and the outbox relay they feed. */
async function startUpdates(
  { env, log, lifecycle }: ServiceContext<QueryEnv>,
  mirror: BoardMirrorDeps,
): Promise<{ published: () => void }> {
  const kafka = await connectServiceKafka(env, 'query', log, { writes: [topics.leaderboardsSettled] });
  const relay = startOutboxRelay({ pool: mirror.pool, kafka, log, topicPrefix: env.KAFKA_TOPIC_PREFIX });
  lifecycle.onShutdown('outbox relay', relay.stop);
  const events = await startEventsConsumer({
    ...mirror,
    kafka,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    recordsPerTransaction: env.EVENTS_RECORDS_PER_TRANSACTION,
    onStopped: (err) => lifecycle.fail('the events consumer stopped', err),
  });
  lifecycle.onShutdown('events consumer', events.stop);
  const sweeper = startMirrorSweeper(mirror, env.MIRROR_SWEEP_INTERVAL_MS);
  lifecycle.onShutdown('mirror sweeper', sweeper.stop);
  const settler = startSettler(
    { ...mirror, topicPrefix: env.KAFKA_TOPIC_PREFIX, published: relay.kick },
    { intervalMs: env.SETTLE_INTERVAL_MS, graceMs: env.SETTLE_GRACE_MS },
  );
  lifecycle.onShutdown('settler', settler.stop);
  return { published: relay.kick };
}
