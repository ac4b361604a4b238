import { createPool } from '@engage/postgres';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { createPrivateDatabase } from './private-database.ts';

/**
 * Checks that hot statements stay index lookups whatever the planner's statistics: the tables are
 * filled, their statistics forgotten (as on a fresh deployment, a big new tenant, or a server
 * without autovacuum), and each statement a store function sends is run again under EXPLAIN
 * ANALYZE with a custom and a generic plan, counting the rows its scans touch.
 */

/** Rows a plan may touch per key asked for: each table probed a few times per key. */
const ROWS_PER_KEY = 6;

/**
 * Runs `use` in a transaction rolled back afterwards, on a client that, before it sends each
 * statement, runs it under EXPLAIN ANALYZE with a custom and a generic plan in a savepoint (so the
 * plans see the rows as the statement itself will): fails when a plan touched more rows than `keys`
 * (the players or rows the statements asked for) justify. `use` must send at least one statement.
 */
export async function expectKeyLookups(
  pool: Pool,
  keys: number,
  use: (client: PoolClient & Pool) => Promise<unknown>,
): Promise<void> {
  const connection = await pool.connect();
  const overBudget: string[] = [];
  let checked = 0;
  // One statement at a time, even when the caller pipelines: each check needs the connection alone.
  let turn = Promise.resolve();
  const query = (config: string | QueryConfig, values?: unknown[]) => {
    const statement =
      typeof config === 'string'
        ? { text: config, values: values ?? [] }
        : { text: config.text, values: config.values ?? values ?? [] };
    const run = turn.then(async () => {
      checked++;
      for (const visit of await visitPlans(connection, statement)) {
        if (visit.rowsTouched > keys * ROWS_PER_KEY) {
          overBudget.push(
            `${visit.mode} plan touched ${visit.rowsTouched} rows for ${keys} keys:\n${statement.text}\n${visit.plan}`,
          );
        }
      }
      return connection.query(config as QueryConfig, values);
    });
    turn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
  const checking = new Proxy(connection, {
    get: (target, property) => (property === 'query' ? query : Reflect.get(target, property)),
  }) as PoolClient & Pool;
  try {
    await connection.query('BEGIN');
    await use(checking);
  } finally {
    await connection.query('ROLLBACK');
    connection.release();
  }
  if (checked === 0) throw new Error('nothing was sent to check');
  if (overBudget.length > 0) throw new Error(overBudget.join('\n\n'));
}

/** A schema's tables, filled and never analyzed, in a database of the test's own. */
export interface NeverAnalyzedSchema {
  pool: Pool;
  /** Ends the pool and drops the database. */
  close(): Promise<void>;
}

/**
 * A database of the test's own, migrated, whose `schema` tables `fill` fills before their statistics
 * are forgotten. `connect` opens the pool the statements run on (by default a plain one on the
 * schema; a service whose connections are set up otherwise passes its own).
 */
export async function neverAnalyzedSchema(
  schema: string,
  fill: (pool: Pool) => Promise<unknown>,
  connect: (url: string) => Pool = (url) => createPool({ url, schema, max: 2 }),
): Promise<NeverAnalyzedSchema> {
  const database = await createPrivateDatabase();
  const pool = connect(database.url);
  const close = async () => {
    await pool.end();
    await database.drop();
  };
  try {
    await fill(pool);
    await forgetStatistics(pool, schema);
  } catch (err) {
    await close();
    throw err;
  }
  return { pool, close };
}

/**
 * Ids to ask for, as `prefix-1` … `prefix-<rows>` name a filled table's rows: `asked - unseen` of
 * them spread over the table, then `unseen` that no row has.
 */
export function spreadIds(prefix: string, rows: number, asked: number, unseen = 10): string[] {
  const held = Array.from(
    { length: asked - unseen },
    (_, i) => `${prefix}-${1 + Math.floor((i * rows) / asked)}`,
  );
  return [...held, ...Array.from({ length: unseen }, (_, i) => `unseen-${i}`)];
}

/** A statement as a store function sends it. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * Makes a schema's tables look never analyzed: no column statistics, tables of unknown size and
 * indexes counted empty, as `CREATE TABLE` and `CREATE INDEX` on empty tables leave them.
 */
export async function forgetStatistics(client: Pool | PoolClient, schema: string): Promise<void> {
  await client.query(
    `DELETE FROM pg_statistic WHERE starelid IN (
       SELECT c.oid FROM pg_class c WHERE c.relnamespace = $1::regnamespace)`,
    [schema],
  );
  await client.query(
    `UPDATE pg_class SET reltuples = -1, relpages = 0, relallvisible = 0
     WHERE relnamespace = $1::regnamespace AND relkind = 'r'`,
    [schema],
  );
  await client.query(
    `UPDATE pg_class SET reltuples = 0, relpages = 1 WHERE relnamespace = $1::regnamespace AND relkind = 'i'`,
    [schema],
  );
}

/** What one plan of a statement touched. */
export interface PlanVisit {
  mode: 'custom' | 'generic';
  /** Rows the plan's scans returned or discarded, over all their loops. */
  rowsTouched: number;
  /** The plan as text, for a failure's message. */
  plan: string;
}

/**
 * Runs a statement under EXPLAIN ANALYZE with a custom and a generic plan, inside a savepoint rolled
 * back afterwards (so a write changes nothing), and counts the rows its scans touched. The client
 * must be in a transaction.
 */
export async function visitPlans(client: PoolClient, statement: SentStatement): Promise<PlanVisit[]> {
  await client.query('SAVEPOINT plan_check');
  // PREPARE is not undone by a rollback: the statement is deallocated whatever happens.
  await client.query(`PREPARE hot_statement AS ${statement.text}`);
  try {
    const { rows } = await client.query<{ types: string[] }>(
      `SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'hot_statement'`,
    );
    const types = rows[0]!.types;
    const literals: string[] = [];
    for (const [i, value] of statement.values.entries()) {
      const quoted = await client.query<{ literal: string }>('SELECT quote_nullable($1::text) AS literal', [
        value,
      ]);
      literals.push(`${quoted.rows[0]!.literal}::${types[i]}`);
    }
    const visits: PlanVisit[] = [];
    for (const mode of ['custom', 'generic'] as const) {
      await client.query(`SET LOCAL plan_cache_mode = force_${mode}_plan`);
      const explained = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE hot_statement(${literals.join(', ')})`,
      );
      await client.query('ROLLBACK TO SAVEPOINT plan_check');
      const plan = explained.rows[0]!['QUERY PLAN'][0].Plan;
      visits.push({ mode, rowsTouched: rowsTouched(plan), plan: describe(plan) });
    }
    return visits;
  } finally {
    await client.query('ROLLBACK TO SAVEPOINT plan_check');
    await client.query('RELEASE SAVEPOINT plan_check');
    await client.query('DEALLOCATE hot_statement');
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

const SCANS = new Set(['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan', 'Tid Scan']);

function rowsTouched(node: PlanNode): number {
  let rows = 0;
  if (SCANS.has(node['Node Type'])) {
    const discarded = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
    rows += node['Actual Rows'] * node['Actual Loops'] + discarded;
  }
  for (const child of node.Plans ?? []) rows += rowsTouched(child);
  return rows;
}

function describe(node: PlanNode, depth = 0): string {
  const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  const line = `${'  '.repeat(depth)}${node['Node Type']}${on}${using} (rows ${node['Actual Rows']} × ${node['Actual Loops']})`;
  return [line, ...(node.Plans ?? []).map((child) => describe(child, depth + 1))].join('\n');
}
