import type { PoolClient } from '@engage/postgres';
import type { KeyClaim } from '../domain/idempotency.ts';
import { MAX_BALANCE } from '../domain/limits.ts';
import type { StoredKeyRow } from './idempotency-keys.ts';
import type { JournalEntry } from './journal.ts';

export interface AdjustmentWrite {
  /** The entry to append if the balance moves; its balanceAfter is what the statement returns. */
  entry: JournalEntry;
  claim: KeyClaim;
}

export type AdjustmentWritten =
  | { keyUsed: StoredKeyRow }
  | { balanceAfter: number }
  | { refused: 'insufficient_balance' | 'balance_limit'; balance: number };

/**
 * An adjustment in one statement: unless the key is already used, move the balance with one
 * conditional statement (a debit never below zero, a credit never past the largest balance), append
 * the journal entry with the balance it left, and claim the key with the answer. A refusal writes
 * nothing (its answer is stored by insertKeyWithResponse). A key claimed at the same instant by another
 * replica makes the claim fail with a unique violation, abandoning the transaction, which runs again.
 */
export async function writeAdjustment(
  client: PoolClient,
  write: AdjustmentWrite,
): Promise<AdjustmentWritten> {
  const { entry, claim } = write;
  const { rows } = await client.query<{
    balance_after: number | null;
    balance: number | null;
    key_used: StoredKeyRow | null;
  }>({
    name: 'ledger.write-adjustment',
    text: `WITH key_used AS (
       SELECT operation, target, request_hash, response_status, response_body FROM idempotency_keys
       WHERE $3::text IS NOT NULL AND environment_id = $1 AND player_id = $2 AND key = $3
     ), debited AS (
       UPDATE balances SET balance = balance + $4::bigint, updated_at = now()
       WHERE $4::bigint < 0 AND NOT EXISTS (SELECT FROM key_used)
         AND environment_id = $1 AND player_id = $2 AND balance + $4::bigint >= 0
       RETURNING balance
     ), credited AS (
       INSERT INTO balances AS b (environment_id, player_id, balance, updated_at)
       SELECT $1, $2, $4::bigint, now() WHERE $4::bigint > 0 AND NOT EXISTS (SELECT FROM key_used)
       ON CONFLICT (environment_id, player_id)
       DO UPDATE SET balance = b.balance + EXCLUDED.balance, updated_at = now()
       WHERE b.balance + EXCLUDED.balance <= $11::bigint
       RETURNING balance
     ), moved AS (
       SELECT balance FROM debited UNION ALL SELECT balance FROM credited
     ), journal_entry AS (
       INSERT INTO journal (entry_id, organization_id, environment_id, player_id, kind, amount, balance_after,
                            reason, idempotency_key, source_ref, created_at)
       SELECT $5, $6, $1, $2, 'adjustment', $4::bigint, balance, $7, $3, NULL, $8 FROM moved
     ), claimed AS (
       INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target,
                                     response_status, response_body)
       SELECT $1, $2, $3, 'adjustment', $9, $10, 200,
              jsonb_build_object('transactionId', $5::uuid, 'amount', $4::bigint, 'balance', balance)
       FROM moved WHERE $3::text IS NOT NULL
     )
     SELECT (SELECT balance FROM moved) AS balance_after,
            (SELECT balance FROM balances WHERE environment_id = $1 AND player_id = $2) AS balance,
            (SELECT row_to_json(key_used) FROM key_used) AS key_used`,
    values: [
      entry.environmentId,
      entry.playerId,
      entry.idempotencyKey,
      entry.amount,
      entry.entryId,
      entry.organizationId,
      entry.reason,
      entry.createdAt,
      claim.requestHash,
      claim.target,
      MAX_BALANCE,
    ],
  });
  const row = rows[0]!;
  if (row.key_used) return { keyUsed: row.key_used };
  if (row.balance_after !== null) return { balanceAfter: row.balance_after };
  return {
    refused: entry.amount < 0 ? 'insufficient_balance' : 'balance_limit',
    balance: row.balance ?? 0,
  };
}
