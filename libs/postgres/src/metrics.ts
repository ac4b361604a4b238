import { Gauge, Histogram, metricsRegistry } from '@engage/kit';
import type pg from 'pg';

const queryDuration = new Histogram({
  name: 'db_client_operation_duration_seconds',
  help: 'Postgres statement duration by schema (service), operation and outcome.',
  labelNames: ['schema', 'operation', 'outcome'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

/** The pools of this process by schema, read each time the pool gauges are scraped. */
const pools = new Map<pg.Pool, string>();

/** Sums a pool figure per schema over this process's open pools (ended ones are forgotten). */
function perSchema(figure: (pool: pg.Pool) => number): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [pool, schema] of pools) {
    if (pool.ended) pools.delete(pool);
    else sums.set(schema, (sums.get(schema) ?? 0) + figure(pool));
  }
  return sums;
}

new Gauge({
  name: 'db_client_connection_count',
  help: 'Postgres connections of the pool by schema and state (used: checked out, idle: in the pool).',
  labelNames: ['schema', 'state'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [schema, idle] of perSchema((pool) => pool.idleCount))
      this.set({ schema, state: 'idle' }, idle);
    for (const [schema, used] of perSchema((pool) => pool.totalCount - pool.idleCount)) {
      this.set({ schema, state: 'used' }, used);
    }
  },
});

new Gauge({
  name: 'db_client_connection_max',
  help: 'Most connections the pool may open, by schema.',
  labelNames: ['schema'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [schema, max] of perSchema((pool) => pool.options.max)) this.set({ schema }, max);
  },
});

new Gauge({
  name: 'db_client_connection_pending_requests',
  help: 'Requests waiting for a Postgres connection of the pool (all in use), by schema.',
  labelNames: ['schema'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [schema, waiting] of perSchema((pool) => pool.waitingCount)) this.set({ schema }, waiting);
  },
});

const OPERATIONS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'with',
  'begin',
  'commit',
  'rollback',
  'set',
  'lock',
  'savepoint',
  'release',
  'copy',
]);

/** The statement's first keyword, from a small fixed set (never the statement text: it is a label). */
export function operationOf(text: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(text);
  const word = match?.[1]?.toLowerCase() ?? '';
  return OPERATIONS.has(word) ? word : 'other';
}

type Query = pg.PoolClient['query'];

/**
 * Times every statement of the pool's clients (pool.query runs on a client too, so each statement
 * is counted once) and reports the pool's connections to the pool gauges. Streaming (submittable)
 * queries pass through untimed.
 */
export function instrumentPool(pool: pg.Pool, schema: string): void {
  pools.set(pool, schema);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const first = args[0] as { text?: unknown; submit?: unknown } | string;
      if (typeof first === 'object' && first?.submit) return query(...args);
      const text = typeof first === 'string' ? first : String(first?.text ?? '');
      const startedAt = performance.now();
      const observe = (failed: unknown) =>
        queryDuration.observe(
          { schema, operation: operationOf(text), outcome: failed ? 'error' : 'ok' },
          (performance.now() - startedAt) / 1000,
        );
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (err: unknown, result: unknown) => {
          observe(err);
          callback(err, result);
        };
        return query(...args);
      }
      return (query(...args) as Promise<unknown>).then(
        (result) => {
          observe(false);
          return result;
        },
        (err: unknown) => {
          observe(true);
          throw err;
        },
      );
    }) as Query;
  });
}
