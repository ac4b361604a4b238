import type { PlayerItemSchema } from '@engage/contracts';
import type { Pool } from '@engage/postgres';
import type { z } from 'zod';
import { playerItems } from '../store/player-items.ts';

/** What purchases and rewards granted the player, newest first, at most `take`. */
export async function listPlayerItems(
  pool: Pool,
  environmentId: string,
  playerId: string,
  take: number,
): Promise<z.infer<typeof PlayerItemSchema>[]> {
  const items = await playerItems(pool, environmentId, playerId, { newestFirst: true, limit: take });
  return items.map((item) => ({
    catalogItemKey: item.catalogItemKey,
    value: item.value,
    source: item.source === 'purchase' ? ('Purchase' as const) : ('Reward' as const),
    sourceRef: item.sourceRef,
    transactionId: item.entryId,
    grantedAtUtc: item.grantedAt.toISOString(),
  }));
}
