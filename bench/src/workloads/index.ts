import type { WorkloadReport } from '../main.ts';
import { adjustments } from './adjustments.ts';
import { ingest } from './ingest.ts';
import { leaderboards } from './leaderboards.ts';
import { ledger } from './ledger.ts';
import { organizationLimit } from './organization-limit.ts';
import { pipeline } from './pipeline.ts';
import { progressMemory } from './progress-memory.ts';
import { rules } from './rules.ts';
import { throughGateway } from './through-gateway.ts';

export interface WorkloadOptions {
  seconds: number;
  concurrency?: number;
  /** Existing players to draw from, for the workloads that seed them (through-gateway, pipeline). */
  players?: number;
  /** Offered rates to try, events/s, in order (pipeline). */
  steps?: number[];
  /** Try every step even after one that did not keep up (pipeline). */
  keepGoing?: boolean;
  /** Where a workload that supports it writes CPU profiles of the service processes it measures. */
  cpuProfileDir?: string;
}

export type Workload = (options: WorkloadOptions) => Promise<WorkloadReport>;

/** Every named workload of `npm run bench`. Later capabilities add theirs here. */
export const workloads: Record<string, Workload> = {
  adjustments,
  ingest,
  leaderboards,
  ledger,
  'organization-limit': organizationLimit,
  pipeline,
  'progress-memory': progressMemory,
  rules,
  'through-gateway': throughGateway,
};

/** Seconds per run of the workloads whose default is not 10 (they measure many short rows). */
export const defaultSeconds: Record<string, number> = { 'through-gateway': 3, pipeline: 30 };
