import { topics } from '@engage/contracts';
import { connectServiceKafka, startOutboxRelay } from '@engage/kafka';
import { InternalSigner, internalVerifierOf, listen, type ServiceContext } from '@engage/kit';
import { createPool, pingPool, warnIfAutovacuumOff } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { buildApp } from './app.ts';
import { liveCapOf } from './application/admit-players.ts';
import { startEdgeViews } from './application/edge-views/edge-views.ts';
import { startKeyExpiry } from './application/expire-idempotency-keys.ts';
import { createOrganizationLimit } from './application/organization-limit/organization-limit.ts';
import { createRefusalTally } from './application/organization-limit/refusal-tally.ts';
import { createPlayerDirectory } from './application/player-directory.ts';
import { createRecentEvents } from './application/recent-events.ts';
import type { GatewayEnv } from './env.ts';
import { createEventProducer } from './kafka/event-producer.ts';
import { createControlPlane } from './upstreams/control-plane.ts';
import { createUpstreams } from './upstreams/upstreams.ts';

export async function startGateway(ctx: ServiceContext<GatewayEnv>): Promise<void> {
  const { env, log, lifecycle } = ctx;
  // Keys, environments and definitions are the control plane's: read in its schema for now.
  const pool = createPool({
    url: env.DATABASE_URL,
    schema: 'gateway',
    alsoSearched: ['control_plane'],
    max: env.DATABASE_POOL_SIZE,
    log,
  });
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

  // Player attribute changes leave through the outbox, after their commit.
  const kafka = await connectServiceKafka(env, 'gateway', log, {
    writes: [topics.eventsAccepted, topics.playersAttributes],
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
  const controlPlane = createControlPlane(env.CONTROL_PLANE_URL, signer);
  lifecycle.onShutdown('control plane', () => controlPlane.close());

  // The gateway's Redis carries small calls only (the organization limit's scripts, the event
  // debugger's record): a connection silent
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

  const app = buildApp({
    log,
    pool,
    producer,
    upstreams,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    verifier: internalVerifierOf(env),
    eventsBodyLimit: env.EVENTS_BODY_LIMIT_BYTES,
    views,
    keyArrivalWaitMs: env.KEY_ARRIVAL_WAIT_MS,
    controlPlane,
    players,
    pendingKeyTimeoutMs: env.IDEMPOTENCY_PENDING_TIMEOUT_MS,
    readiness: () => pingPool(pool),
    onOutbox: relay.kick,
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
