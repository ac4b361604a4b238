import { execute, type Pool, type PoolClient } from '@engage/postgres';
import { sql } from 'kysely';
import { MAX_BALANCE } from '../domain/limits.ts';
import { ledgerSql } from './tables.ts';

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
  const [row] = await execute(
    db,
    ledgerSql
      .selectFrom('balances')
      .select(['balance', 'updated_at'])
      .where('environment_id', '=', player.environmentId)
      .where('player_id', '=', player.playerId),
  );
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
  const now = sql<Date>`now()`;
  const [row] = await execute(
    client,
    amount > 0
      ? ledgerSql
          .insertInto('balances')
          .values({
            environment_id: player.environmentId,
            player_id: player.playerId,
            balance: amount,
            updated_at: now,
          })
          .onConflict((conflict) =>
            conflict
              .columns(['environment_id', 'player_id'])
              .doUpdateSet((eb) => ({
                balance: eb('balances.balance', '+', eb.ref('excluded.balance')),
                updated_at: now,
              }))
              .where((eb) => eb(eb('balances.balance', '+', eb.ref('excluded.balance')), '<=', MAX_BALANCE)),
          )
          .returning(['balance', 'updated_at'])
      : ledgerSql
          .updateTable('balances')
          .set((eb) => ({ balance: eb('balance', '+', amount), updated_at: now }))
          .where('environment_id', '=', player.environmentId)
          .where('player_id', '=', player.playerId)
          .where((eb) => eb(eb('balance', '+', amount), '>=', 0))
          .returning(['balance', 'updated_at']),
  );
  if (!row) return { refused: amount > 0 ? 'balance_limit' : 'insufficient_balance' };
  return { balance: row.balance, updatedAt: row.updated_at };
}
