import type { Pool, PoolClient } from '@engage/postgres';

type Db = Pool | PoolClient;

export interface ItemOccurrenceRef {
  itemKey: string;
  occurrence: number;
}

const refKey = (ref: ItemOccurrenceRef) => `${ref.itemKey}#${ref.occurrence}`;

/** Units sold of each item occurrence (0 when none). */
export async function unitsSold(
  db: Db,
  environmentId: string,
  refs: ItemOccurrenceRef[],
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ item_key: string; occurrence: number; sold: number }>(
    `SELECT s.item_key, s.occurrence, s.sold
     FROM item_sales s JOIN unnest($2::text[], $3::int[]) AS r(item_key, occurrence) USING (item_key, occurrence)
     WHERE s.environment_id = $1`,
    [environmentId, refs.map((r) => r.itemKey), refs.map((r) => r.occurrence)],
  );
  return new Map(rows.map((r) => [refKey({ itemKey: r.item_key, occurrence: r.occurrence }), r.sold]));
}

/** This player's purchases of each item occurrence (0 when none). */
export async function purchasesMade(
  db: Db,
  environmentId: string,
  playerId: string,
  refs: ItemOccurrenceRef[],
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ item_key: string; occurrence: number; purchased: number }>(
    `SELECT p.item_key, p.occurrence, p.purchased
     FROM player_item_purchases p
     JOIN unnest($3::text[], $4::int[]) AS r(item_key, occurrence) USING (item_key, occurrence)
     WHERE p.environment_id = $1 AND p.player_id = $2`,
    [environmentId, playerId, refs.map((r) => r.itemKey), refs.map((r) => r.occurrence)],
  );
  return new Map(rows.map((r) => [refKey({ itemKey: r.item_key, occurrence: r.occurrence }), r.purchased]));
}

export const countOf = (counts: Map<string, number>, ref: ItemOccurrenceRef) => counts.get(refKey(ref)) ?? 0;

/**
 * Takes one unit of stock with one conditional upsert: concurrent buyers of the last unit serialise
 * on the row's lock and exactly one of them gets it. False: sold out, nothing written.
 */
export async function takeUnit(
  client: PoolClient,
  environmentId: string,
  ref: ItemOccurrenceRef,
  stock: number | undefined,
): Promise<boolean> {
  return increment(client, 'item_sales', 'sold', [environmentId, ref.itemKey, ref.occurrence], stock);
}

/** Counts one purchase of the player against the item's per-player limit. False: limit reached. */
export async function countPurchase(
  client: PoolClient,
  environmentId: string,
  playerId: string,
  ref: ItemOccurrenceRef,
  limit: number | undefined,
): Promise<boolean> {
  return increment(
    client,
    'player_item_purchases',
    'purchased',
    [environmentId, playerId, ref.itemKey, ref.occurrence],
    limit,
  );
}

async function increment(
  client: PoolClient,
  table: 'item_sales' | 'player_item_purchases',
  column: 'sold' | 'purchased',
  key: (string | number)[],
  bound: number | undefined,
): Promise<boolean> {
  if (bound !== undefined && bound < 1) return false;
  const columns =
    table === 'item_sales'
      ? 'environment_id, item_key, occurrence'
      : 'environment_id, player_id, item_key, occurrence';
  const placeholders = key.map((_, i) => `$${i + 1}`).join(', ');
  const boundParam = `$${key.length + 1}`;
  const { rowCount } = await client.query(
    `INSERT INTO ${table} AS t (${columns}, ${column}) VALUES (${placeholders}, 1)
     ON CONFLICT (${columns}) DO UPDATE SET ${column} = t.${column} + 1
     WHERE ${boundParam}::int IS NULL OR t.${column} + 1 <= ${boundParam}::int`,
    [...key, bound ?? null],
  );
  return rowCount === 1;
}
