import { topics } from '@engage/contracts';
import { connectServiceKafka, type KafkaClient, startOutboxRelay } from '@engage/kafka';
import { InternalSigner, internalVerifierOf, listen, type ServiceContext } from '@engage/kit';
import { createPool, type Pool, pingPool, warnIfAutovacuumOff } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { buildApp } from './app.ts';
import { liveCapOf } from './application/admit-players.ts';
import { startEdgeViews } from './application/edge-views/edge-views.ts';
import { startKeyExpiry } from './application/expire-idempotency-keys.ts';
import { createOrganizationLimit } from './application/organization-limit/organization-limit.ts';
import { createRefusalTally } from './application/organization-limit/refusal-tally.ts';
import { createPlayerDirectory } from './application/player-directory.ts';
import { createRecentEvents } from './application/recent-events.ts';
import { cookieSecure } from './application/session-env.ts';
import { startDeliveryWorker } from './application/webhooks/delivery-worker.ts';
import { startWebhookSources } from './consumers/webhook-sources.ts';
import type { GatewayEnv } from './env.ts';
import { createEventProducer } from './kafka/event-producer.ts';
import { createSignInThrottle } from './store/sign-in-failures.ts';
import { createControlPlane } from './upstreams/control-plane.ts';
import { createUpstreams } from './upstreams/upstreams.ts';

export async function startGateway(ctx: ServiceContext<GatewayEnv>): Promise<void> {
  const { env, log, lifecycle } = ctx;
  const pool = createPool({ url: env.DATABASE_URL, schema: 'gateway', max: env.DATABASE_POOL_SIZE, log });
  lifecycle.onShutdown('postgres', () => pool.end());
  void warnIfAutovacuumOff(pool, log);

  const producer = await createEventProducer({
    brokers: env.KAFKA_BROKERS,
    clientId: env.KAFKA_CLIENT_ID ?? 'gateway',
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    security: env.kafkaSecurity,
    log,
  });
  lifecycle.onShutdown('kafka producer', () => producer.close());

  // Player attribute, API-key and definition changes leave through the outbox, after their commit.
  const kafka = await connectServiceKafka(env, 'gateway', log, {
    writes: [
      topics.eventsAccepted,
      topics.playersAttributes,
      topics.apiKeys,
      topics.apiKeysState,
      topics.organizationsState,
      topics.definitionsApplied,
    ],
  });
  const relay = startOutboxRelay({ pool, kafka, log, topicPrefix: env.KAFKA_TOPIC_PREFIX });
  lifecycle.onShutdown('outbox relay', relay.stop);

  // Keys, organizations and event definitions, read whole before the gateway listens.
  const views = await startEdgeViews({
    kafka,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    log,
    onStopped: (err) => lifecycle.fail('the state topics reader stopped', err),
  });
  lifecycle.onShutdown('state views', () => views.stop());

  const signer = new InternalSigner(env.INTERNAL_AUTH_SECRET);
  const upstreams = createUpstreams(
    { rules: env.RULES_URL, ledger: env.LEDGER_URL, query: env.QUERY_URL },
    signer,
  );
  lifecycle.onShutdown('upstreams', () => upstreams.close());
  const controlPlane = createControlPlane(env.CONTROL_PLANE_URL ?? ownAddress(env), signer);
  lifecycle.onShutdown('control plane', () => controlPlane.close());

  // The gateway's Redis carries small calls only (the organization limit's scripts, sign-in
  // counters, the event debugger's record): a connection silent
  // for 2 s is dropped and re-established, so a Redis that hung and came back is used again.
  const redis = createRedis(env.REDIS_URL, { connectionName: 'gateway', silenceMs: 2_000 });
  lifecycle.onShutdown('redis', async () => void (await redis.quit()));
  const organizationLimit = createOrganizationLimit({ redis, keyPrefix: env.REDIS_KEY_PREFIX, env, log });
  const refusalTally = createRefusalTally({ redis, keyPrefix: env.REDIS_KEY_PREFIX, log });
  lifecycle.onShutdown('organization limit refusals', () => refusalTally.close());
  // Runs before Redis closes: the slots kept for the next requests go back at once, not at lease expiry.
  lifecycle.onShutdown('organization limit', () => organizationLimit.close?.());

  const expiry = startKeyExpiry({ pool, log, retentionMs: env.IDEMPOTENCY_KEY_RETENTION_MS });
  lifecycle.onShutdown('idempotency key expiry', () => expiry.stop());

  const players = createPlayerDirectory({
    pool,
    schema: 'gateway',
    maxEntries: env.PLAYER_CACHE_MAX_ENTRIES,
    liveCap: (environment) => liveCapOf(views, environment),
    log,
  });
  lifecycle.onShutdown('player change notifications', () => players.close());

  const webhooks = startWebhooks({ env, log, lifecycle, pool, kafka });

  const app = buildApp({
    log,
    pool,
    producer,
    upstreams,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    adminToken: env.ADMIN_TOKEN,
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
    eventsBodyLimit: env.EVENTS_BODY_LIMIT_BYTES,
    views,
    keyArrivalWaitMs: env.KEY_ARRIVAL_WAIT_MS,
    controlPlane,
    internalVerifier: internalVerifierOf(env),
    players,
    pendingKeyTimeoutMs: env.IDEMPOTENCY_PENDING_TIMEOUT_MS,
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
    organizationLimit,
    refusalTally,
    recentEvents: createRecentEvents({
      redis,
      keyPrefix: env.REDIS_KEY_PREFIX,
      settings: {
        maxItems: env.RECENT_EVENTS_MAX_ITEMS,
        watchTtlMs: env.RECENT_EVENTS_WATCH_TTL_MS,
        maxPendingCalls: env.RECENT_EVENTS_MAX_PENDING_CALLS,
      },
      log,
    }),
  });
  await listen(app, ctx);
}

/** This gateway's own address, for the calls it makes to the control plane it serves itself. */
function ownAddress(env: GatewayEnv): string {
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`;
}

/**
 * Webhooks: the consumers that queue deliveries from the source topics, and this replica's delivery
 * worker. Joining the consumer groups can wait out a crashed predecessor's session; the API does not
 * wait for it. A consumer that kafkajs gives up on stops the process, as in the other services.
 */
function startWebhooks(deps: {
  env: GatewayEnv;
  log: ServiceContext<GatewayEnv>['log'];
  lifecycle: ServiceContext<GatewayEnv>['lifecycle'];
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
