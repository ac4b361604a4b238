import type { PointsBalanceSchema } from '@engage/contracts';
import type { Pool } from '@engage/postgres';
import type { z } from 'zod';
import { readBalance } from '../store/balances.ts';

/** Endpoint 8: a player's balance. A player the environment never saw has 0, never a 404. */
export async function pointsBalance(
  pool: Pool,
  environmentId: string,
  playerId: string,
): Promise<z.infer<typeof PointsBalanceSchema>> {
  const found = await readBalance(pool, { environmentId, playerId });
  return { playerId, balance: found?.balance ?? 0, updatedAtUtc: found?.updatedAt.toISOString() ?? null };
}
