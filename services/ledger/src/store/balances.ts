import type { Pool, PoolClient } from '@engage/postgres';
import { MAX_BALANCE } from '../domain/limits.ts';

export interface PlayerRef {
  environmentId: string;
  playerId: string;
}

export interface Balance {
  balance: number;
  updatedAt: Date;
}

/** Why a change of balance was refused; nothing was written. */
export type BalanceRefusal = 'insufficient_balance' | 'balance_limit';

export async function readBalance(db: Pool | PoolClient, player: PlayerRef): Promise<Balance | undefined> {
  const { rows } = await db.query<{ balance: number; updated_at: Date }>(
    'SELECT balance, updated_at FROM balances WHERE environment_id = $1 AND player_id = $2',
    [player.environmentId, player.playerId],
  );
  const row = rows[0];
  return row && { balance: row.balance, updatedAt: row.updated_at };
}

/**
 * Moves a balance by `amount` with one conditional statement, so concurrent changes of one balance
 * serialise on its row lock and a debit can never take it below zero (a CHECK constraint backs this).
 */
export async function applyDelta(
  client: PoolClient,
  player: PlayerRef,
  amount: number,
): Promise<Balance | { refused: BalanceRefusal }> {
  const { rows } =
    amount > 0
      ? await client.query<{ balance: number; updated_at: Date }>(
          `INSERT INTO balances AS b (environment_id, player_id, balance, updated_at)
           VALUES ($1, $2, $3, now())
           ON CONFLICT (environment_id, player_id)
           DO UPDATE SET balance = b.balance + EXCLUDED.balance, updated_at = now()
           WHERE b.balance + EXCLUDED.balance <= $4
           RETURNING balance, updated_at`,
          [player.environmentId, player.playerId, amount, MAX_BALANCE],
        )
      : await client.query<{ balance: number; updated_at: Date }>(
          `UPDATE balances SET balance = balance + $3, updated_at = now()
           WHERE environment_id = $1 AND player_id = $2 AND balance + $3 >= 0
           RETURNING balance, updated_at`,
          [player.environmentId, player.playerId, amount],
        );
  const row = rows[0];
  if (!row) return { refused: amount > 0 ? 'balance_limit' : 'insufficient_balance' };
  return { balance: row.balance, updatedAt: row.updated_at };
}
