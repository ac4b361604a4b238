import { randomBytes } from 'node:crypto';
import {
  createCatalogTopics,
  ensureInfra,
  findRepoRoot,
  type Infra,
  migrateAll,
  type ServiceName,
} from '@engage/devstack';
import { InternalSigner } from '@engage/kit';
import { type ServiceProcess, spawnService } from '@engage/testkit/process.ts';
import { keepTablesVacuumed, type TableMaintenance } from './autovacuum.ts';

export interface BenchStack {
  infra: Infra;
  topicPrefix: string;
  services: Partial<Record<ServiceName, ServiceProcess>>;
  gatewayUrl: string;
  /** The admin API the workloads create their tenants through (started with the gateway). */
  controlPlaneUrl: string;
  adminToken: string;
  /** The secret the services take calls with, for a workload that calls them as the gateway does. */
  internalAuthSecret: string;
  /** Signs a call as the gateway does, for workloads that call a service directly. */
  signer: InternalSigner;
  /** The bench's stand-in for autovacuum, which a workload may pause to measure unanalyzed tables. */
  tableMaintenance: TableMaintenance;
  stop(): Promise<void>;
}

/**
 * The real stack for one benchmark run: the local servers, fresh topics of its own, and the given
 * services as separate processes (the gateway after the others, pointed at them; the control
 * plane with it).
 */
export async function startBenchStack(
  services: ServiceName[],
  options: { nodeArgs?: Partial<Record<ServiceName, string[]>> } = {},
): Promise<BenchStack> {
  const repoRoot = findRepoRoot();
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const infra = await ensureInfra({ log });
  await migrateAll(repoRoot, infra.databaseUrl);
  const autovacuum = await keepTablesVacuumed(infra.databaseUrl, log);
  const topicPrefix = `bench${randomBytes(4).toString('hex')}.`;
  await createCatalogTopics(infra.brokers, topicPrefix);
  const adminToken = randomBytes(24).toString('base64url');
  const internalAuthSecret = randomBytes(32).toString('base64url');
  const env: Record<string, string> = {
    DATABASE_URL: infra.databaseUrl,
    REDIS_URL: infra.redisUrl,
    REDIS_KEY_PREFIX: topicPrefix,
    KAFKA_BROKERS: infra.brokers.join(','),
    KAFKA_TOPIC_PREFIX: topicPrefix,
    ADMIN_TOKEN: adminToken,
    INTERNAL_AUTH_SECRET: internalAuthSecret,
    LOG_LEVEL: 'warn',
  };
  const running: Partial<Record<ServiceName, ServiceProcess>> = {};
  for (const name of services.filter((s) => s !== 'gateway' && s !== 'control-plane')) {
    running[name] = await spawnService(repoRoot, name, env, { nodeArgs: options.nodeArgs?.[name] });
    env[`${name.toUpperCase()}_URL`] = running[name].url;
  }
  if (services.includes('gateway')) {
    running.gateway = await spawnService(repoRoot, 'gateway', env, { nodeArgs: options.nodeArgs?.gateway });
    running['control-plane'] = await spawnService(
      repoRoot,
      'control-plane',
      { ...env, GATEWAY_URL: running.gateway.url },
      { nodeArgs: options.nodeArgs?.['control-plane'] },
    );
  }
  return {
    infra,
    topicPrefix,
    services: running,
    gatewayUrl: running.gateway?.url ?? '',
    controlPlaneUrl: running['control-plane']?.url ?? '',
    adminToken,
    internalAuthSecret,
    signer: new InternalSigner(internalAuthSecret),
    tableMaintenance: autovacuum,
    stop: async () => {
      await Promise.all(Object.values(running).map((s) => s.stop()));
      await autovacuum.stop();
      if (infra.kafka.startedHere) await infra.kafka.stop();
    },
  };
}
