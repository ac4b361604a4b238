import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { createCatalogTopics, freePorts } from '@engage/devstack';
import { createKafka, decodeRecord, startOutboxRelay } from '@engage/kafka';
import {
  createLogger,
  type HttpApp,
  InternalSigner,
  InternalVerifier,
  retry,
  startTelemetry,
} from '@engage/kit';
import { createPool, type Pool, type PoolClient } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import {
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  TEST_ADMIN_TOKEN,
  TEST_INTERNAL_AUTH_SECRET,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { buildApp } from '../src/app.ts';
import { liveCapOf } from '../src/application/admit-players.ts';
import { type EdgeViews, startEdgeViews } from '../src/application/edge-views/edge-views.ts';
import { createPlayerDirectory, type PlayerDirectory } from '../src/application/player-directory.ts';
import {
  createRecentEvents,
  type RecentEvents,
  type RecentEventsSettings,
} from '../src/application/recent-events.ts';
import { createEventProducer, type EventProducer } from '../src/kafka/event-producer.ts';
import { createControlPlane } from '../src/upstreams/control-plane.ts';
import { createUpstreams, type Upstreams } from '../src/upstreams/upstreams.ts';

export interface InProcessGateway {
  app: HttpApp;
  url: string;
  /** The control plane (a process of its own) whose admin API creates this gateway's tenants. */
  controlPlaneUrl: string;
  pool: Pool;
  producer: EventProducer;
  topicPrefix: string;
  players: PlayerDirectory;
  /** The application_name of the connection this gateway listens to player changes on. */
  playerListenerName: string;
  recentEvents: RecentEvents;
  /** The keys, organizations and event definitions this gateway holds. */
  views: EdgeViews;
  close(): Promise<void>;
}

let telemetryStarted = false;

/** The gateway built in-process on the real Postgres and Kafka, listening on a free port. */
export async function startGateway(
  options: {
    upstreams?: Partial<Record<'rules' | 'ledger' | 'query', string>>;
    /** The topics this gateway shares with another (default: topics of its own). */
    topicPrefix?: string;
    /** Brokers the gateway produces to (default: the test stack's). */
    brokers?: string[];
    pendingKeyTimeoutMs?: number;
    /** Short Kafka timeouts and retry budget: for a test that cuts the gateway off its broker. */
    failFast?: boolean;
    /** The Redis the event debugger records in (default: the test stack's). */
    recentEventsRedisUrl?: string;
    recentEvents?: Partial<RecentEventsSettings>;
  } = {},
): Promise<InProcessGateway> {
  const stack = stackConfig();
  const log = createLogger('gateway-test', 'silent');
  const topicPrefix = options.topicPrefix ?? uniqueTopicPrefix();
  const brokers = options.brokers ?? stack.brokers;
  // A freshly created topic's metadata can lag a moment behind on a busy broker.
  await retry(() => createCatalogTopics(brokers, topicPrefix), {
    attempts: 5,
    delayMs: (failed) => 200 * failed,
  });
  // The outbox relay publishes on the stack's broker (below): its topics must be there too.
  if (brokers !== stack.brokers) {
    await retry(() => createCatalogTopics(stack.brokers, topicPrefix), {
      attempts: 5,
      delayMs: (failed) => 200 * failed,
    });
  }
  // As runService does: the SDK registers the W3C propagator that forwarding uses.
  if (!telemetryStarted) {
    startTelemetry('gateway-test', undefined);
    telemetryStarted = true;
  }
  const pool = createPool({
    url: stack.databaseUrl,
    schema: 'gateway',
    alsoSearched: ['control_plane'],
    max: 10,
  });
  const producer = await createEventProducer({
    brokers,
    clientId: 'gateway-test',
    topicPrefix,
    log,
    // A cut link fails a send within about a second, so the test sees refusals quickly.
    ...(options.failFast
      ? { timeouts: { connectMs: 500, requestMs: 1_000, retries: 2, retryDelayMs: 100 } }
      : {}),
  });
  const nowhere = 'http://127.0.0.1:9';
  const upstreams: Upstreams = createUpstreams(
    {
      rules: options.upstreams?.rules ?? nowhere,
      ledger: options.upstreams?.ledger ?? nowhere,
      query: options.upstreams?.query ?? nowhere,
    },
    new InternalSigner(TEST_INTERNAL_AUTH_SECRET),
  );
  // As the server does: the control plane's state read whole before the gateway listens.
  const views = await startEdgeViews({
    kafka: createKafka({ brokers: stack.brokers, clientId: 'gateway-test-views', log }),
    topicPrefix,
    log,
    onStopped: (err) => log.error({ err }, 'the state topics reader stopped'),
  });
  const playerListenerName = `gateway-players-${crypto.randomUUID().slice(0, 8)}`;
  const players = createPlayerDirectory({
    pool,
    schema: 'gateway',
    maxEntries: 500_000,
    listenerName: playerListenerName,
    liveCap: (environment) => liveCapOf(views, environment),
  });
  // What a gateway caches before it listens it forgets: tests start from a listening one.
  await players.whenListening();
  const redis = createRedis(stack.redisUrl, { connectionName: 'gateway-test' });
  const recentEventsRedis = options.recentEventsRedisUrl
    ? createRedis(options.recentEventsRedisUrl, { connectionName: 'gateway-test-recent' })
    : redis;
  const recentEvents = createRecentEvents({
    redis: recentEventsRedis,
    keyPrefix: topicPrefix,
    settings: { maxItems: 300, watchTtlMs: 60_000, maxPendingCalls: 64, ...options.recentEvents },
    log,
  });
  // As the server does: the relay publishes the state changes the gateway records in its outbox
  // (on the stack's brokers even when the test cuts the producer's link: other tests share the outbox).
  // On a pool of its own, so that tests counting the request path's statements do not see its polls.
  const relayPool = createPool({ url: stack.databaseUrl, schema: 'gateway', max: 2 });
  const relay = startOutboxRelay({
    pool: relayPool,
    kafka: createKafka({ brokers: stack.brokers, clientId: 'gateway-test-relay', log }),
    topicPrefix,
    log,
    idleMs: 50,
  });
  // The gateway records its discoveries at the control plane, which asks the gateway for players:
  // its ports are chosen first so that each learns the other's address.
  const [controlPlanePort, controlPlaneMetricsPort] = await freePorts(2);
  const controlPlaneUrl = `http://127.0.0.1:${controlPlanePort}`;
  const controlPlane = createControlPlane(controlPlaneUrl, new InternalSigner(TEST_INTERNAL_AUTH_SECRET));
  const app = buildApp({
    log,
    onOutbox: relay.kick,
    pool,
    producer,
    upstreams,
    topicPrefix,
    verifier: new InternalVerifier([TEST_INTERNAL_AUTH_SECRET]),
    eventsBodyLimit: 8 * 1024 * 1024,
    views,
    // Longer than a server's default (1 s): a test machine under load may take longer to hear of a key.
    keyArrivalWaitMs: 5_000,
    controlPlane,
    players,
    pendingKeyTimeoutMs: options.pendingKeyTimeoutMs ?? 35_000,
    recentEvents,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const controlPlaneProcess: ServiceProcess = await spawnService(
    stack.repoRoot,
    'control-plane',
    serviceEnv(topicPrefix, { GATEWAY_URL: url, ...upstreamUrls(options.upstreams) }),
    { port: controlPlanePort, metricsPort: controlPlaneMetricsPort },
  );
  return {
    app,
    url,
    controlPlaneUrl: controlPlaneProcess.url,
    pool,
    producer,
    topicPrefix,
    players,
    playerListenerName,
    recentEvents,
    views,
    close: async () => {
      await controlPlaneProcess.stop();
      await app.close();
      await controlPlane.close();
      await views.stop();
      await players.close();
      await upstreams.close();
      await producer.close();
      await relay.stop();
      await relayPool.end();
      await redis.quit();
      if (recentEventsRedis !== redis) recentEventsRedis.disconnect();
      await pool.end();
    },
  };
}

/** Where the control plane finds the owners the test started (the environment file's other sections). */
function upstreamUrls(upstreams: Partial<Record<'rules' | 'ledger' | 'query', string>> = {}) {
  const nowhere = 'http://127.0.0.1:9';
  return {
    RULES_URL: upstreams.rules ?? nowhere,
    LEDGER_URL: upstreams.ledger ?? nowhere,
    QUERY_URL: upstreams.query ?? nowhere,
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const adminHeaders = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * Every accepted event of one environment on the test topic up to now: the partitions' end offsets
 * are taken first, then the topic is read from the beginning up to them. Proves absence as well
 * as presence.
 */
export async function readAcceptedEvents(
  topicPrefix: string,
  environmentId: string,
  brokers: string[] = stackConfig().brokers,
): Promise<AcceptedEvent[]> {
  const kafka = createKafka({ brokers, clientId: 'events-test', log: createLogger('t', 'silent') });
  const topic = topicName(topics.eventsAccepted, topicPrefix);
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map<number, number>();
  try {
    for (const p of await admin.fetchTopicOffsets(topic)) {
      if (Number(p.high) > 0) ends.set(p.partition, Number(p.high));
    }
  } finally {
    await admin.disconnect();
  }
  const seen: AcceptedEvent[] = [];
  if (ends.size === 0) return seen;
  const consumer = kafka.consumer({ groupId: `test-${crypto.randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  try {
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            const end = ends.get(partition);
            if (end === undefined || Number(message.offset) >= end) return;
            const event = decodeRecord(topics.eventsAccepted, message.value!);
            if (event.environmentId === environmentId) seen.push(event);
            if (Number(message.offset) >= end - 1) ends.delete(partition);
            if (ends.size === 0) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return seen;
}

/** Records every statement the gateway's pool runs from now on. */
export function recordStatements(gateway: InProcessGateway): string[] {
  const statements: string[] = [];
  const wrapped = new WeakSet<PoolClient>();
  gateway.pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [text] = args;
      statements.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      return query(...args);
    };
  });
  return statements;
}
