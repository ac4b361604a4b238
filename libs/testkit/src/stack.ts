import { randomBytes } from 'node:crypto';
import {
  type EnvironmentContext,
  encodePlayerContext,
  INTERNAL_HEADERS,
  type PlayerContext,
} from '@engage/contracts';
import { createCatalogTopics, freePorts } from '@engage/devstack';
import type { KafkaSecurity } from '@engage/kafka';
import { createPool, type Pool } from '@engage/postgres';
import { inject } from 'vitest';
import { TEST_ADMIN_TOKEN, TEST_INTERNAL_AUTH_SECRET } from './constants.ts';
import { fileDatabaseUrl } from './file-database.ts';
import { type ServiceProcess, spawnService } from './process.ts';
import type { StackConfig } from './provided.ts';

export type ServiceName = 'gateway' | 'rules' | 'ledger' | 'query' | 'control-plane';

/** The real servers the integration global setup started or found, and the test file's database. */
export function stackConfig(): StackConfig {
  const { templateDatabaseUrl: _template, ...servers } = inject('stack');
  return { ...servers, databaseUrl: fileDatabaseUrl() };
}

/** A topic prefix of its own, so a test's services see only the records the test produced. */
export function uniqueTopicPrefix(): string {
  return `t${randomBytes(5).toString('hex')}.`;
}

/** Environment every service process of a test stack gets. */
export function serviceEnv(topicPrefix: string, extra: Record<string, string> = {}): Record<string, string> {
  const stack = stackConfig();
  return {
    DATABASE_URL: stack.databaseUrl,
    REDIS_URL: stack.redisUrl,
    REDIS_KEY_PREFIX: topicPrefix,
    KAFKA_BROKERS: stack.brokers.join(','),
    KAFKA_TOPIC_PREFIX: topicPrefix,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    INTERNAL_AUTH_SECRET: TEST_INTERNAL_AUTH_SECRET,
    // Tests receive webhooks on loopback (http://127.0.0.1:…).
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    // A control plane that sends webhooks sends, and retries on its own schedule, the deliveries of every
    // endpoint in its database: only the stack that asks does (`webhooks: true`).
    WEBHOOKS_ENABLED: 'false',
    ...extra,
  };
}

export interface TestStack {
  topicPrefix: string;
  /** The first process of each service: the one the gateway forwards to. */
  services: Partial<Record<ServiceName, ServiceProcess>>;
  /** Every process `addReplica` started, running or not (all of them are stopped with the stack). */
  replicas: ServiceProcess[];
  gatewayUrl: string;
  /** The admin API and the console (started with the gateway: tenants are created through it). */
  controlPlaneUrl: string;
  /** The database the services use: the test file's, unless `env` names another. */
  databaseUrl: string;
  env: Record<string, string>;
  /**
   * Starts one more process of a service with the stack's environment (its topics, its consumer
   * group, its database), on ports of its own: consumers share the partitions with the others. The
   * gateway keeps forwarding to `services[name]`.
   */
  addReplica(name: ServiceName): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/**
 * Starts the given services as separate processes against the real servers, with their own topics.
 * The gateway (when asked for) is started after the others and pointed at them; the control plane
 * comes with it (or when asked for alone), pointed at it and the owners.
 */
export async function startStack(
  options: {
    services?: ServiceName[];
    env?: Record<string, string>;
    /** The tree the services run from (the repository by default). */
    root?: string;
    user?: { uid: number; gid: number };
    /** Where the topics are created (the shared broker by default; a fault test's private one). */
    brokers?: string[];
    /** How the topics are created on `brokers` (plaintext by default); the services' own is in `env`. */
    security?: KafkaSecurity;
    /** The bootstrap list the services get (`brokers` by default; a link in front of them, say). */
    serviceBrokers?: string[];
    /** Environment of one service only, over the stack's. */
    serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
    /** The control plane sends the webhooks of every endpoint in the file's database. */
    webhooks?: boolean;
  } = {},
): Promise<TestStack> {
  const brokers = options.brokers ?? stackConfig().brokers;
  const repoRoot = options.root ?? stackConfig().repoRoot;
  const spawnOptions = { user: options.user };
  const wanted = options.services ?? ['rules', 'ledger', 'query', 'gateway'];
  const topicPrefix = uniqueTopicPrefix();
  await createCatalogTopics(brokers, topicPrefix, { security: options.security });
  const env = serviceEnv(topicPrefix, {
    KAFKA_BROKERS: (options.serviceBrokers ?? brokers).join(','),
    ...(options.webhooks ? { WEBHOOKS_ENABLED: 'true' } : {}),
    ...options.env,
  });
  const envOf = (name: ServiceName) => ({ ...env, ...options.serviceEnv?.[name] });
  const services: Partial<Record<ServiceName, ServiceProcess>> = {};
  const owners = wanted.filter((name) => name !== 'gateway' && name !== 'control-plane');
  await Promise.all(
    owners.map(async (name) => {
      services[name] = await spawnService(repoRoot, name, envOf(name), spawnOptions);
    }),
  );
  for (const name of owners) env[`${name.toUpperCase()}_URL`] = services[name]!.url;
  // The gateway records discoveries at the control plane, which asks the gateway for players: the
  // control plane's ports are chosen first so that each learns the other's address at start.
  const withControlPlane = wanted.includes('gateway') || wanted.includes('control-plane');
  const [controlPlanePort, controlPlaneMetricsPort] = await freePorts(2);
  if (withControlPlane) env.CONTROL_PLANE_URL = `http://127.0.0.1:${controlPlanePort}`;
  if (wanted.includes('gateway')) {
    services.gateway = await spawnService(repoRoot, 'gateway', envOf('gateway'), spawnOptions);
    env.GATEWAY_URL = services.gateway.url;
  }
  if (withControlPlane) {
    services['control-plane'] = await spawnService(repoRoot, 'control-plane', envOf('control-plane'), {
      ...spawnOptions,
      port: controlPlanePort,
      metricsPort: controlPlaneMetricsPort,
    });
  }
  const replicas: ServiceProcess[] = [];
  return {
    topicPrefix,
    services,
    replicas,
    gatewayUrl: services.gateway?.url ?? '',
    controlPlaneUrl: services['control-plane']?.url ?? '',
    databaseUrl: env.DATABASE_URL!,
    env,
    addReplica: async (name) => {
      const replica = await spawnService(repoRoot, name, envOf(name), spawnOptions);
      replicas.push(replica);
      return replica;
    },
    stop: async () => {
      const all = [...Object.values(services), ...replicas];
      await Promise.all(all.map((s) => s.stop().catch(() => undefined)));
    },
  };
}

/** A pool on one service's schema in the test file's database, for assertions on what it stored. */
export function schemaPool(
  schema: Exclude<ServiceName, 'control-plane'> | 'control_plane',
  databaseUrl = stackConfig().databaseUrl,
): Pool {
  return createPool({ url: databaseUrl, schema, max: 4 });
}

/** The headers the gateway adds when it forwards a request to an owning service. */
export function internalHeaders(env: EnvironmentContext, player?: Partial<PlayerContext> & { id: string }) {
  const headers: Record<string, string> = {
    [INTERNAL_HEADERS.organizationId]: env.organizationId,
    [INTERNAL_HEADERS.environmentId]: env.environmentId,
    [INTERNAL_HEADERS.environmentKind]: env.environmentKind,
  };
  if (player) {
    headers[INTERNAL_HEADERS.player] = encodePlayerContext({
      timeZone: null,
      attributes: {},
      isNew: false,
      ...player,
    });
  }
  return headers;
}

/** A random environment context, for testing an owning service without the gateway. */
export function randomEnvironment(kind: 'Sandbox' | 'Live' = 'Sandbox'): EnvironmentContext {
  return { organizationId: crypto.randomUUID(), environmentId: crypto.randomUUID(), environmentKind: kind };
}
