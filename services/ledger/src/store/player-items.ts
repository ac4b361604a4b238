import type { ContentValue } from '@engage/contracts/environment/shop.ts';
import { execute, type Pool, type PoolClient } from '@engage/postgres';
import { ledgerSql } from './tables.ts';

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
  await execute(
    client,
    ledgerSql.insertInto('player_items').values(
      grant.items.map((item) => ({
        environment_id: grant.environmentId,
        player_id: grant.playerId,
        catalog_item_key: item.catalogItemKey,
        value: JSON.stringify(item.value ?? null),
        source: grant.source,
        source_ref: grant.sourceRef,
        entry_id: grant.entryId,
      })),
    ),
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
  const { limit } = options;
  return execute(
    db,
    ledgerSql
      .selectFrom('player_items')
      .select([
        'catalog_item_key as catalogItemKey',
        'value',
        'source',
        'source_ref as sourceRef',
        'entry_id as entryId',
        'granted_at as grantedAt',
      ])
      .where('environment_id', '=', environmentId)
      .where('player_id', '=', playerId)
      .orderBy('item_seq', options.newestFirst ? 'desc' : 'asc')
      .$if(limit !== undefined, (query) => query.limit(limit!)),
  );
}
