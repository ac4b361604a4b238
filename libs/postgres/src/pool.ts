import pg from 'pg';
import { instrumentPool } from './metrics.ts';

// int8 (bigint) columns hold points, stock and offsets: whole numbers well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`int8 value ${text} is outside the safe integer range`);
  return value;
});

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type QueryResult<R extends pg.QueryResultRow = pg.QueryResultRow> = pg.QueryResult<R>;
export type QueryConfig = pg.QueryConfig;

export interface PoolOptions {
  url: string;
  /** Each service owns one schema; its connections see only it on their search path. */
  schema: string;
  /**
   * Schemas searched after the service's own, for tables it reads but another service owns while a
   * move between them is under way (the gateway's reads of the control plane's tables).
   */
  alsoSearched?: readonly string[];
  max?: number;
  applicationName?: string;
  /** Where a connection lost while a client held it is reported (a service's logger). */
  log?: { warn(details: object, message: string): void };
  /**
   * Postgres's plan_cache_mode for the pool's connections. `force_generic_plan` plans a named
   * statement once per connection: for a large statement over arrays (a batch written from unnest)
   * planning it again at every execution costs more than running it.
   */
  planCacheMode?: 'auto' | 'force_generic_plan' | 'force_custom_plan';
  /**
   * Postgres's enable_seqscan for the pool's connections (default on). Off: a statement that can
   * find its rows by an index does so whatever the table's statistics say. For a service whose
   * statements are all key lookups: a generic plan made while a table was empty or never analyzed
   * scans it whole, and keeps doing so for the connection's life as the table grows.
   */
  seqScans?: boolean;
  /**
   * pg's pipeline mode: a client writes each statement at once instead of after the previous
   * answer, which lets `withPipelinedTransaction` write a transaction's BEGIN (COMMIT) in the same
   * message as its first (last) statement. Statements awaited one by one behave as without it.
   */
  pipeline?: boolean;
}

export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? options.schema,
    options: [
      `-c search_path=${[options.schema, ...(options.alsoSearched ?? [])].map(quoteIdent).join(',')}`,
      `-c plan_cache_mode=${options.planCacheMode ?? 'auto'}`,
      ...(options.seqScans === false ? ['-c enable_seqscan=off'] : []),
    ].join(' '),
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 30_000,
    pipeline: options.pipeline ?? false,
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor must one lost while checked out (a terminated backend, a failover): pg emits the error on
  // the client, where without a listener it is an uncaught exception. With one, the client's pending
  // or next query fails, and so only its transaction.
  pool.on('connect', (client) => {
    client.on('error', (err) =>
      options.log?.warn({ err }, 'a Postgres connection failed; its transaction is abandoned'),
    );
  });
  instrumentPool(pool, options.schema);
  return pool;
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid identifier ${name}`);
  return `"${name}"`;
}

/** Whether the server runs without autovacuum (`SHOW autovacuum` answers off). */
export async function runsWithoutAutovacuum(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ autovacuum: string }>('SHOW autovacuum');
  return rows[0]?.autovacuum === 'off';
}

/**
 * Warns when the server runs without autovacuum (docs/operating.md, "Postgres maintenance"): the
 * services cache generic plans per connection, which Postgres replaces only when a table they read
 * is analyzed, so a plan made while a table was empty would stay as it grows; and the outbox's and
 * offsets' dead rows would pile up. Answers whether it warned. A server that cannot be asked now is
 * left to the readiness probe.
 */
export async function warnIfAutovacuumOff(
  pool: pg.Pool,
  log: { warn(details: object, message: string): void },
): Promise<boolean> {
  const off = await runsWithoutAutovacuum(pool).catch(() => false);
  if (off) {
    log.warn(
      { autovacuum: 'off' },
      'Postgres runs without autovacuum: cached plans are not renewed as tables grow and dead rows pile up; turn it on',
    );
  }
  return off;
}

/** Readiness probe: a pool is ready when a trivial query answers. */
export async function pingPool(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
