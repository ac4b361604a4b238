import { Histogram, metricsRegistry } from '@engage/kit';
import type pg from 'pg';

const queryDuration = new Histogram({
  name: 'db_client_operation_duration_seconds',
  help: 'Postgres statement duration by schema (service), operation and outcome.',
  labelNames: ['schema', 'operation', 'outcome'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
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
 * is counted once). Streaming (submittable) queries pass through untimed.
 */
export function instrumentPool(pool: pg.Pool, schema: string): void {
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
