import type { Pool } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { commandCpu, commandCpuSince, machineBusyMs, processCpuMs } from './process-cpu.ts';

/**
 * Where a run's CPU went, part by part: named processes (the services, a reference proxy), the
 * Postgres backends of each named application (by `application_name`) and the rest of Postgres,
 * Redis (`INFO cpu`), the Kafka broker (`java`), this bench process, and the whole machine
 * (`/proc/stat`); "rest" is what the machine spent beyond the parts (the kernel's own work,
 * anything else running). Read before and after a phase, divided by its units of work.
 */
export interface CpuMeterOptions {
  /** Label → the process's pid now (read at each snapshot: a restarted process has a new one). */
  processes: Record<string, () => number | undefined>;
  /** Postgres applications whose backends are counted apart (each service's pool uses its name). */
  postgresApplications?: readonly string[];
  db: Pool;
  redis?: Redis;
}

interface Snapshot {
  processes: Record<string, { pid: number; ms: number }>;
  backends: Map<number, { application: string; ms: number }>;
  postgres: Map<number, number>;
  broker: Map<number, number>;
  redis: number;
  client: NodeJS.CpuUsage;
  machine: number;
}

/** CPU used by each part in a phase, in ms. */
export interface CpuSpent {
  processes: Record<string, number>;
  /** Postgres backends of each named application; `other` is the rest of Postgres. */
  postgres: Record<string, number> & { total: number };
  redis: number;
  broker: number;
  bench: number;
  machine: number;
  rest: number;
}

export class CpuMeter {
  private readonly options: CpuMeterOptions;

  constructor(options: CpuMeterOptions) {
    this.options = options;
  }

  async snapshot(): Promise<Snapshot> {
    const processes: Snapshot['processes'] = {};
    for (const [label, pidOf] of Object.entries(this.options.processes)) {
      const pid = pidOf();
      // A process not started yet (or stopped) counts as nothing.
      if (pid !== undefined) processes[label] = { pid, ms: processCpuMs(pid) };
    }
    return {
      processes,
      backends: await this.backends(),
      postgres: commandCpu('postgres'),
      broker: commandCpu('java'),
      redis: this.options.redis ? await redisCpuMs(this.options.redis) : 0,
      client: process.cpuUsage(),
      machine: machineBusyMs(),
    };
  }

  async since(before: Snapshot): Promise<CpuSpent> {
    const postgresTotal = commandCpuSince('postgres', before.postgres);
    const broker = commandCpuSince('java', before.broker);
    const after = await this.snapshot();
    const processes: Record<string, number> = {};
    for (const [label, { pid, ms }] of Object.entries(after.processes)) {
      const was = before.processes[label];
      processes[label] = was !== undefined && was.pid === pid ? ms - was.ms : ms;
    }
    const postgres: CpuSpent['postgres'] = { total: postgresTotal };
    let named = 0;
    for (const [pid, { application, ms }] of after.backends) {
      const spent = ms - (before.backends.get(pid)?.ms ?? 0);
      postgres[application] = (postgres[application] ?? 0) + spent;
      named += spent;
    }
    postgres.other = postgres.total - named;
    const client = process.cpuUsage(before.client);
    const bench = (client.user + client.system) / 1000;
    const redis = after.redis - before.redis;
    const machine = after.machine - before.machine;
    const counted =
      Object.values(processes).reduce((a, b) => a + b, 0) + postgres.total + redis + broker + bench;
    return { processes, postgres, redis, broker, bench, machine, rest: machine - counted };
  }

  /** `work` as a phase: its result and the CPU each part used meanwhile. */
  async around<T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuSpent }> {
    const before = await this.snapshot();
    const result = await work();
    return { result, cpu: await this.since(before) };
  }

  private async backends(): Promise<Snapshot['backends']> {
    const applications = this.options.postgresApplications ?? [];
    const backends: Snapshot['backends'] = new Map();
    if (applications.length === 0) return backends;
    const { rows } = await this.options.db.query<{ pid: number; application_name: string }>(
      'SELECT pid, application_name FROM pg_stat_activity WHERE application_name = ANY($1::text[])',
      [applications],
    );
    for (const row of rows)
      backends.set(row.pid, { application: row.application_name, ms: processCpuMs(row.pid) });
    return backends;
  }
}

/**
 * `spent` per unit of work, as text: each part's CPU in µs per `per` units (`per` 1 for "per
 * request", 1,000 for "per 1,000 events"), largest first, then the machine's total.
 */
export function cpuPerUnit(spent: CpuSpent, units: number, per = 1): string {
  const scale = (ms: number) => (ms * 1000 * per) / units;
  const postgresParts = Object.entries(spent.postgres)
    .filter(([name]) => name !== 'total')
    .filter(([name, ms]) => name !== 'other' || ms > 0)
    .map(([name, ms]) => `${name} ${format(scale(ms))}`);
  const parts: [string, number][] = [
    ...Object.entries(spent.processes),
    ['Postgres', spent.postgres.total],
    ['Redis', spent.redis],
    ['Kafka broker', spent.broker],
    ['bench client', spent.bench],
    ['rest', spent.rest],
  ];
  const text = parts
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) =>
      name === 'Postgres' && postgresParts.length > 1
        ? `Postgres ${format(scale(ms))} (${postgresParts.join(', ')})`
        : `${name} ${format(scale(ms))}`,
    );
  return `${text.join(', ')}; the whole machine ${format(scale(spent.machine))}`;
}

/** The share of the machine's cores busy over `seconds` (0–1). */
export const machineBusyShare = (spent: CpuSpent, seconds: number, cores: number) =>
  spent.machine / (seconds * 1000 * cores);

const format = (us: number) => (us >= 100 ? us.toFixed(0) : us.toFixed(1));

/** CPU time the Redis server used so far (INFO cpu), in ms. */
export async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
}
