import { createCatalogTopics, freePorts } from '@engage/devstack';
import { createKafka, startOutboxRelay } from '@engage/kafka';
import { createLogger, type HttpApp, InternalSigner, InternalVerifier, retry } from '@engage/kit';
import { createPool, type Pool } from '@engage/postgres';
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
import { createSignInThrottle } from '../src/store/sign-in-failures.ts';
import { createUpstreams } from '../src/upstreams/upstreams.ts';

export interface InProcessControlPlane {
  app: HttpApp;
  url: string;
  pool: Pool;
  topicPrefix: string;
  /** The gateway (a process of its own, on the same topics) that takes the tenants' /v1 calls. */
  gatewayUrl: string;
  close(): Promise<void>;
}

type Owner = 'rules' | 'ledger' | 'query';

/**
 * The control plane built in-process on the real Postgres, Redis and Kafka, listening on a free
 * port, with a gateway process beside it; `upstreams` names the owners of the file's other sections.
 */
export async function startControlPlane(
  options: { upstreams?: Partial<Record<Owner, string>> } = {},
): Promise<InProcessControlPlane> {
  const stack = stackConfig();
  const log = createLogger('control-plane-test', 'silent');
  const topicPrefix = uniqueTopicPrefix();
  // A freshly created topic's metadata can lag a moment behind on a busy broker.
  await retry(() => createCatalogTopics(stack.brokers, topicPrefix), {
    attempts: 5,
    delayMs: (failed) => 200 * failed,
  });
  const nowhere = 'http://127.0.0.1:9';
  const owners = {
    rules: options.upstreams?.rules ?? nowhere,
    ledger: options.upstreams?.ledger ?? nowhere,
    query: options.upstreams?.query ?? nowhere,
  };
  // The gateway records its discoveries here: this control plane's port is chosen before it starts.
  const [port] = await freePorts(1);
  const gateway: ServiceProcess = await spawnService(
    stack.repoRoot,
    'gateway',
    serviceEnv(topicPrefix, {
      RULES_URL: owners.rules,
      LEDGER_URL: owners.ledger,
      QUERY_URL: owners.query,
      CONTROL_PLANE_URL: `http://127.0.0.1:${port}`,
    }),
  );
  const pool = createPool({ url: stack.databaseUrl, schema: 'control_plane', max: 10 });
  const upstreams = createUpstreams(
    { gateway: gateway.url, ...owners },
    new InternalSigner(TEST_INTERNAL_AUTH_SECRET),
  );
  const redis = createRedis(stack.redisUrl, { connectionName: 'control-plane-test' });
  // As the server does: the relay publishes the key and definition changes recorded in the outbox.
  const relay = startOutboxRelay({
    pool,
    kafka: createKafka({ brokers: stack.brokers, clientId: 'control-plane-test-relay', log }),
    topicPrefix,
    log,
    idleMs: 50,
  });
  const app = buildApp({
    log,
    pool,
    upstreams,
    topicPrefix,
    adminToken: TEST_ADMIN_TOKEN,
    verifier: new InternalVerifier([TEST_INTERNAL_AUTH_SECRET]),
    signIn: {
      throttle: createSignInThrottle(redis, topicPrefix, {
        freeFailuresPerAccount: 5,
        freeFailuresPerAddress: 20,
        firstDelayMs: 1000,
        maxDelayMs: 60_000,
        memoryMs: 3_600_000,
      }),
      sessions: { idleTimeoutMs: 30 * 60_000, absoluteTimeoutMs: 12 * 3_600_000 },
    },
    cookieSecure: false,
    invitationTtlMs: 7 * 24 * 3_600_000,
    onOutbox: relay.kick,
    webhooks: {
      urlRules: { allowInsecure: true, allowPrivateAddresses: true },
      maxEndpointsPerEnvironment: 20,
      kick: () => undefined,
    },
  });
  const url = await app.listen({ host: '127.0.0.1', port });
  return {
    app,
    url,
    pool,
    topicPrefix,
    gatewayUrl: gateway.url,
    close: async () => {
      await app.close();
      await gateway.stop();
      await upstreams.close();
      await relay.stop();
      await redis.quit();
      await pool.end();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const adminHeaders = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** A /v1 call to the gateway beside the control plane, answered in the shape of `app.inject`. */
export async function injectGateway(
  controlPlane: InProcessControlPlane,
  call: { method: string; url: string; headers?: Record<string, string>; payload?: unknown },
  // biome-ignore lint/suspicious/noExplicitAny: the same loose answer as app.inject's json()
): Promise<{ statusCode: number; json: () => any }> {
  const response = await fetch(`${controlPlane.gatewayUrl}${call.url}`, {
    method: call.method,
    headers: {
      ...call.headers,
      ...(call.payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(call.payload === undefined ? {} : { body: JSON.stringify(call.payload) }),
  });
  const body = await response.json();
  return { statusCode: response.status, json: () => body };
}
