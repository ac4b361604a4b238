import { topics } from '@engage/contracts';
import { connectServiceKafka, type KafkaClient, startOutboxRelay } from '@engage/kafka';
import { InternalSigner, internalVerifierOf, listen, type ServiceContext } from '@engage/kit';
import { createPool, type Pool, pingPool, warnIfAutovacuumOff } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { buildApp } from './app.ts';
import { cookieSecure } from './application/session-env.ts';
import type { ControlPlaneEnv } from './env.ts';
import { createSignInThrottle } from './store/sign-in-failures.ts';
import { createUpstreams } from './upstreams/upstreams.ts';
import { startDeliveryWorker } from './webhooks/delivery-worker.ts';
import { startWebhookSources } from './webhooks/source-consumers.ts';

export async function startControlPlane(ctx: ServiceContext<ControlPlaneEnv>): Promise<void> {
  const { env, log, lifecycle } = ctx;
  const pool = createPool({
    url: env.DATABASE_URL,
    schema: 'control_plane',
    max: env.DATABASE_POOL_SIZE,
    log,
  });
  lifecycle.onShutdown('postgres', () => pool.end());
  void warnIfAutovacuumOff(pool, log);

  // API-key and definition changes leave through the outbox, after their commit.
  const kafka = await connectServiceKafka(env, 'control-plane', log, {
    writes: [topics.apiKeys, topics.apiKeysState, topics.organizationsState, topics.definitionsApplied],
  });
  const relay = startOutboxRelay({ pool, kafka, log, topicPrefix: env.KAFKA_TOPIC_PREFIX });
  lifecycle.onShutdown('outbox relay', relay.stop);

  const upstreams = createUpstreams(
    { gateway: env.GATEWAY_URL, rules: env.RULES_URL, ledger: env.LEDGER_URL, query: env.QUERY_URL },
    new InternalSigner(env.INTERNAL_AUTH_SECRET),
  );
  lifecycle.onShutdown('upstreams', () => upstreams.close());

  // Sign-in failure counters only: a connection silent for 2 s is dropped and re-established.
  const redis = createRedis(env.REDIS_URL, { connectionName: 'control-plane', silenceMs: 2_000 });
  lifecycle.onShutdown('redis', async () => void (await redis.quit()));

  const webhooks = startWebhooks({ env, log, lifecycle, pool, kafka });

  const app = buildApp({
    log,
    pool,
    upstreams,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    adminToken: env.ADMIN_TOKEN,
    verifier: internalVerifierOf(env),
    consoleDirectory: env.CONSOLE_DIR,
    signIn: {
      throttle: createSignInThrottle(redis, env.REDIS_KEY_PREFIX, {
        freeFailuresPerAccount: env.SIGN_IN_FREE_FAILURES_PER_ACCOUNT,
        freeFailuresPerAddress: env.SIGN_IN_FREE_FAILURES_PER_ADDRESS,
        firstDelayMs: env.SIGN_IN_FIRST_DELAY_MS,
        maxDelayMs: env.SIGN_IN_MAX_DELAY_MS,
        memoryMs: env.SIGN_IN_FAILURE_MEMORY_MS,
      }),
      sessions: {
        idleTimeoutMs: env.SESSION_IDLE_TIMEOUT_MS,
        absoluteTimeoutMs: env.SESSION_ABSOLUTE_TIMEOUT_MS,
      },
    },
    cookieSecure: cookieSecure(env),
    invitationTtlMs: env.INVITATION_TTL_MS,
    readiness: () => pingPool(pool),
    onOutbox: relay.kick,
    webhooks: {
      urlRules: {
        allowInsecure: env.WEBHOOK_ALLOW_INSECURE_URLS,
        allowPrivateAddresses: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES || env.WEBHOOK_ALLOW_INSECURE_URLS,
      },
      maxEndpointsPerEnvironment: env.WEBHOOK_MAX_ENDPOINTS_PER_ENVIRONMENT,
      kick: webhooks.kick,
    },
  });
  await listen(app, ctx);
}

/**
 * Webhooks: the consumers that queue deliveries from the source topics, and this replica's delivery
 * worker. Joining the consumer groups can wait out a crashed predecessor's session; the API does not
 * wait for it. A consumer that kafkajs gives up on stops the process, as in the other services.
 */
function startWebhooks(deps: {
  env: ControlPlaneEnv;
  log: ServiceContext<ControlPlaneEnv>['log'];
  lifecycle: ServiceContext<ControlPlaneEnv>['lifecycle'];
  pool: Pool;
  kafka: KafkaClient;
}): { kick: () => void } {
  const { env, log, lifecycle, pool, kafka } = deps;
  if (!env.WEBHOOKS_ENABLED) return { kick: () => undefined };
  const worker = startDeliveryWorker({
    pool,
    log,
    settings: {
      schedule: { delaysMs: env.WEBHOOK_RETRY_DELAYS_MS },
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
      concurrency: env.WEBHOOK_CONCURRENCY,
      concurrencyPerOrganization: env.WEBHOOK_CONCURRENCY_PER_ORGANIZATION,
      concurrencyPerEndpoint: env.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
      retentionMs: env.WEBHOOK_DELIVERY_RETENTION_MS,
      allowPrivateAddresses: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES || env.WEBHOOK_ALLOW_INSECURE_URLS,
    },
  });
  lifecycle.onShutdown('webhook delivery worker', () => worker.stop());
  const sources = startWebhookSources({
    kafka,
    pool,
    log,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    onQueued: worker.kick,
    onStopped: (err) => lifecycle.fail('a webhook source consumer stopped', err),
  });
  lifecycle.onShutdown('webhook source consumers', () => sources.stop());
  return worker;
}
