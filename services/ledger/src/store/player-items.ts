import type { ContentValue } from '@engage/contracts/environment/shop.ts';
import type { Pool, PoolClient } from '@engage/postgres';

export interface GrantedItem {
  catalogItemKey: string;
  /** Null when a reward named a catalog item without a value. */
  value: ContentValue | null;
}

export interface PlayerItemsGrant {
  environmentId: string;
  playerId: string;
  source: 'purchase' | 'reward';
  /** The purchase id or the reward grant id. */
  sourceRef: string;
  /** The journal entry recorded with the grant, if points moved too. */
  entryId: string | null;
  items: GrantedItem[];
}

/** Appends the catalog items a purchase or a reward granted: the journal's companion record. */
export async function recordPlayerItems(client: PoolClient, grant: PlayerItemsGrant): Promise<void> {
  if (grant.items.length === 0) return;
  await client.query(
    `INSERT INTO player_items (environment_id, player_id, catalog_item_key, value, source, source_ref, entry_id)
     SELECT $1, $2, i.catalog_item_key, coalesce(i.value, 'null'::jsonb), $3, $4, $5
     FROM jsonb_to_recordset($6::jsonb) AS i(catalog_item_key text, value jsonb)`,
    [
      grant.environmentId,
      grant.playerId,
      grant.source,
      grant.sourceRef,
      grant.entryId,
      JSON.stringify(grant.items.map((i) => ({ catalog_item_key: i.catalogItemKey, value: i.value }))),
    ],
  );
}

export interface PlayerItemRow {
  catalogItemKey: string;
  value: ContentValue | null;
  source: 'purchase' | 'reward';
  sourceRef: string;
  entryId: string | null;
  grantedAt: Date;
}

/** The items granted to a player, oldest first (or newest first), at most `limit`. */
export async function playerItems(
  db: Pool | PoolClient,
  environmentId: string,
  playerId: string,
  options: { newestFirst?: boolean; limit?: number } = {},
): Promise<PlayerItemRow[]> {
  const { rows } = await db.query<PlayerItemRow>(
    `SELECT catalog_item_key AS "catalogItemKey", value, source, source_ref AS "sourceRef", entry_id AS "entryId",
            granted_at AS "grantedAt"
     FROM player_items WHERE environment_id = $1 AND player_id = $2
     ORDER BY item_seq ${options.newestFirst ? 'DESC' : 'ASC'} LIMIT $3`,
    [environmentId, playerId, options.limit ?? null],
  );
  return rows;
}
