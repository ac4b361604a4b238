import { createKafka } from '@engage/kafka';
import { listen, type ServiceContext } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { buildApp } from './app.ts';
import { startEventsConsumer } from './consumers/events.ts';
import type { RulesEnv } from './env.ts';

export async function startRules(ctx: ServiceContext<RulesEnv>): Promise<void> {
  const { env, log, lifecycle } = ctx;
  const pool = createPool({ url: env.DATABASE_URL, schema: 'rules', max: env.DATABASE_POOL_SIZE });
  lifecycle.onShutdown('postgres', () => pool.end());

  const kafka = createKafka({ brokers: env.KAFKA_BROKERS, clientId: env.KAFKA_CLIENT_ID ?? 'rules', log });
  const events = await startEventsConsumer({
    kafka,
    pool,
    log,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
  });
  lifecycle.onShutdown('events consumer', events.stop);

  await listen(buildApp({ log, pool }), ctx);
}
