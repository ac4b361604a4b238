import type { Pool } from '@engage/postgres';
import { expect } from 'vitest';

export interface Violation {
  environment_id: string;
  player_id: string;
  violation: string;
  expected: number;
  actual: number;
}

export interface JournalRow {
  entryId: string;
  playerId: string;
  kind: string;
  amount: number;
  balanceAfter: number;
  idempotencyKey: string | null;
}

/** The ledger's own invariant check (SQL function balance_equals_journal), for one environment. */
export async function ledgerViolations(pool: Pool, environmentId: string): Promise<Violation[]> {
  const { rows } = await pool.query<Violation>('SELECT * FROM balance_equals_journal($1)', [environmentId]);
  return rows;
}

export async function journalOf(pool: Pool, environmentId: string, playerId?: string): Promise<JournalRow[]> {
  const { rows } = await pool.query<JournalRow>(
    `SELECT entry_id AS "entryId", player_id AS "playerId", kind, amount, balance_after AS "balanceAfter",
            idempotency_key AS "idempotencyKey"
     FROM journal WHERE environment_id = $1 AND ($2::text IS NULL OR player_id = $2) ORDER BY seq`,
    [environmentId, playerId ?? null],
  );
  return rows;
}

export async function storedBalance(pool: Pool, environmentId: string, playerId: string): Promise<number> {
  const { rows } = await pool.query<{ balance: number }>(
    'SELECT balance FROM balances WHERE environment_id = $1 AND player_id = $2',
    [environmentId, playerId],
  );
  return rows[0]?.balance ?? 0;
}

/**
 * The oracle after a run: every balance equals the sum of its journal, each entry's balance_after is
 * the running sum, no balance below zero, and no idempotency key has more than one effect.
 */
export async function expectLedgerInvariants(pool: Pool, environmentId: string): Promise<void> {
  expect(await ledgerViolations(pool, environmentId)).toEqual([]);
  const { rows: reusedKeys } = await pool.query(
    `SELECT player_id, idempotency_key, count(*)::int AS effects FROM journal
     WHERE environment_id = $1 AND idempotency_key IS NOT NULL
     GROUP BY player_id, idempotency_key HAVING count(*) > 1`,
    [environmentId],
  );
  expect(reusedKeys).toEqual([]);
  const { rows: negative } = await pool.query(
    'SELECT player_id, balance FROM balances WHERE environment_id = $1 AND balance < 0',
    [environmentId],
  );
  expect(negative).toEqual([]);
}
