import type { EnvironmentContext } from '@engage/contracts';
import { createPool, type Pool } from '@engage/postgres';
import {
  fetchAsGateway,
  internalHeaders,
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { createLedgerTopics } from './journal-topic-setup.ts';

/** What a client saw of one request: an answer, or nothing (the process died with it in flight). */
export interface HttpAnswer {
  status: number;
  body: Record<string, unknown>;
}
export type Observed = HttpAnswer | 'unknown';

/** A ledger process of the fault tests' own, its journal topic, and a pool on its schema. */
export interface LedgerProcess {
  service: ServiceProcess;
  pool: Pool;
  topicPrefix: string;
  brokers: string[];
  /** SIGKILL (nothing to drain) and the pool closed. */
  stop(): Promise<void>;
}

export async function startLedgerProcess(options: { poolSize?: number } = {}): Promise<LedgerProcess> {
  const { repoRoot, brokers, databaseUrl } = stackConfig();
  const topicPrefix = uniqueTopicPrefix();
  await createLedgerTopics(brokers, topicPrefix);
  const pool = createPool({ url: databaseUrl, schema: 'ledger', max: options.poolSize ?? 4 });
  // A short session lets a restarted process take its partitions back quickly after a SIGKILL.
  const service = await spawnService(
    repoRoot,
    'ledger',
    serviceEnv(topicPrefix, { KAFKA_SESSION_TIMEOUT_MS: '6000' }),
  );
  return {
    service,
    pool,
    topicPrefix,
    brokers,
    stop: async () => {
      await service.kill('SIGKILL');
      await pool.end();
    },
  };
}

/**
 * Calls a ledger process as the gateway forwards a request (internal headers, the player named);
 * a request that got no answer at all (the process died with it in flight) is `unknown`.
 */
export async function callLedger(
  service: ServiceProcess,
  request: {
    method: 'GET' | 'POST' | 'PUT';
    path: string;
    env: EnvironmentContext;
    playerId?: string;
    body?: unknown;
  },
): Promise<Observed> {
  try {
    const res = await fetchAsGateway(`${service.url}${request.path}`, {
      method: request.method,
      headers: internalHeaders(request.env, request.playerId ? { id: request.playerId } : undefined),
      body: request.body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return 'unknown';
  }
}
