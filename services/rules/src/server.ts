import { topics } from '@engage/contracts';
import { connectServiceKafka, startOutboxRelay } from '@engage/kafka';
import { internalVerifierOf, listen, type ServiceContext } from '@engage/kit';
import { createPool, warnIfAutovacuumOff } from '@engage/postgres';
import { buildApp } from './app.ts';
import { ProgressCache } from './application/progress-cache.ts';
import { RulesCache } from './application/rules-cache.ts';
import { startEventsConsumer } from './consumers/events.ts';
import type { RulesEnv } from './env.ts';

export async function startRules(ctx: ServiceContext<RulesEnv>): Promise<void> {
  const { env, log, lifecycle } = ctx;
  // Pipelining: the consumer sends its lock and its read of changed players in one round trip.
  const pool = createPool({
    url: env.DATABASE_URL,
    schema: 'rules',
    max: env.DATABASE_POOL_SIZE,
    log,
    pipeline: true,
  });
  lifecycle.onShutdown('postgres', () => pool.end());
  void warnIfAutovacuumOff(pool, log);

  const kafka = await connectServiceKafka(env, 'rules', log, {
    writes: [topics.rewardsGranted, topics.rulesProgress],
  });

  // Reward grants and analyst records leave through the outbox, after the commit that wrote them.
  const relay = startOutboxRelay({ pool, kafka, log, topicPrefix: env.KAFKA_TOPIC_PREFIX });
  lifecycle.onShutdown('outbox relay', relay.stop);

  const rules = new RulesCache();
  const events = await startEventsConsumer({
    kafka,
    pool,
    log,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    rules,
    progress: new ProgressCache(env.PROGRESS_CACHE_MAX_MB * 1024 * 1024),
    onOutbox: relay.kick,
    onStopped: (err) => lifecycle.fail('the events consumer stopped', err),
  });
  lifecycle.onShutdown('events consumer', events.stop);

  await listen(
    buildApp({
      log,
      pool,
      rules,
      topicPrefix: env.KAFKA_TOPIC_PREFIX,
      onOutbox: relay.kick,
      verifier: internalVerifierOf(env),
    }),
    ctx,
  );
}
