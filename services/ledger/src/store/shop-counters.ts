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
