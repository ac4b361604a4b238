import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { migrate, type PipelinedTransaction, type Pool, withPipelinedTransaction } from '@engage/postgres';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyWrites } from '../src/application/write-queue.ts';
import type { AdjustmentOp } from '../src/domain/write-decisions.ts';
import { createLedgerPool } from '../src/store/pool.ts';
import { readBatchState } from '../src/store/write-batch.ts';
import { adjustmentOp } from './support/adjustment-op.ts';

// A schema of its own, as a new deployment has it: empty tables that were never analyzed.
const schema = `ledger_plans_${randomUUID().slice(0, 8)}`;
let pool: Pool;
beforeAll(async () => {
  const { databaseUrl } = stackConfig();
  await migrate({ databaseUrl, schema, dir: fileURLToPath(new URL('../migrations', import.meta.url)) });
  pool = createLedgerPool({ url: databaseUrl, max: 1, schema });
});
afterAll(async () => {
  await pool.query(`DROP SCHEMA ${schema} CASCADE`);
  await pool.end();
});

/**
 * Runs a batch's statements without committing its write, then counts the sequential scans this
 * transaction made of the schema's tables (pg_stat_xact_user_tables: this transaction's own).
 */
const seqScansOfBatch = (ops: AdjustmentOp[]) =>
  withPipelinedTransaction(pool, async (tx) => {
    const withoutCommit: PipelinedTransaction = { query: tx.query, commitWith: tx.query };
    await applyWrites(withoutCommit, ops, uniqueTopicPrefix());
    const { rows } = await tx.query<{ relname: string; seq_scan: number }>({
      text: 'SELECT relname, seq_scan FROM pg_stat_xact_user_tables WHERE schemaname = $1 AND seq_scan > 0',
      values: [schema],
    });
    return rows;
  });

it('reads and writes a batch by index on tables that are new, empty and never analyzed', async () => {
  const environmentId = randomUUID();
  const players = ['p1', 'p2', 'p3'];
  // First the players' balance rows are created, then updated (the write's conditional update).
  expect(await seqScansOfBatch(players.map((p) => adjustmentOp(environmentId, p, 10)))).toEqual([]);
  expect(await seqScansOfBatch(players.map((p) => adjustmentOp(environmentId, p, -1)))).toEqual([]);
});

/** The rows a batch's read (its state: keys, balances, items) took from each of the schema's tables. */
const rowsReadByBatchState = (ops: AdjustmentOp[]) =>
  withPipelinedTransaction(pool, async (tx) => {
    await readBatchState(tx, ops);
    const { rows } = await tx.query<{ relname: string; read: number }>({
      text: `SELECT relname, seq_tup_read + coalesce(idx_tup_fetch, 0) AS read FROM pg_stat_xact_user_tables
             WHERE schemaname = $1 AND seq_tup_read + coalesce(idx_tup_fetch, 0) > 0`,
      values: [schema],
    });
    return Object.fromEntries(rows.map((r) => [r.relname, r.read]));
  });

it('reads only the rows a batch names after its tables grew under plans made while they looked empty', async () => {
  const environmentId = randomUUID();
  const players = ['q1', 'q2', 'q3'];
  // Statistics that say the tables are empty (a VACUUM of a new deployment); the connection's
  // generic plans are made now, against them, and Postgres keeps them until the next ANALYZE.
  await pool.query('VACUUM (ANALYZE) balances, idempotency_keys');
  await withPipelinedTransaction(pool, (tx) =>
    applyWrites(
      tx,
      players.map((p) => adjustmentOp(environmentId, p, 10)),
      uniqueTopicPrefix(),
    ),
  );
  const grown = 100_000;
  await pool.query({
    text: `WITH players AS (SELECT 'grown' || i AS player_id FROM generate_series(1, $2::int) i),
                balance_rows AS (INSERT INTO balances (environment_id, player_id, balance)
                                 SELECT $1, player_id, 1 FROM players)
           INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target)
           SELECT $1, player_id, 'k', 'adjustment', 'h', '1' FROM players`,
    values: [environmentId, grown],
  });
  const read = await rowsReadByBatchState(players.map((p) => adjustmentOp(environmentId, p, -1)));
  // A few fetches of each named row (9 for these three on Postgres 15), not a scan of the grown
  // table: the plain joins this read had before, planned on the empty tables, fetched all 100,000.
  expect(read.balances).toBeLessThanOrEqual(5 * players.length);
  expect(read.idempotency_keys ?? 0).toBeLessThanOrEqual(5 * players.length);
});
