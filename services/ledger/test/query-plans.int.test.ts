import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { migrate, type PipelinedTransaction, type Pool, withPipelinedTransaction } from '@engage/postgres';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyWrites } from '../src/commands/write-queue.ts';
import type { AdjustmentOp } from '../src/domain/write-decisions.ts';
import { createLedgerPool } from '../src/store/pool.ts';
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
