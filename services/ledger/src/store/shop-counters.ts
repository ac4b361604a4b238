import { execute, type Pool, type PoolClient } from '@engage/postgres';
import { ledgerSql } from './tables.ts';

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
  if (refs.length === 0) return new Map();
  const rows = await execute(
    db,
    ledgerSql
      .selectFrom('item_sales')
      .select(['item_key', 'occurrence', 'sold'])
      .where('environment_id', '=', environmentId)
      .where((eb) =>
        eb(
          eb.refTuple('item_key', 'occurrence'),
          'in',
          refs.map((r) => eb.tuple(r.itemKey, r.occurrence)),
        ),
      ),
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
  if (refs.length === 0) return new Map();
  const rows = await execute(
    db,
    ledgerSql
      .selectFrom('player_item_purchases')
      .select(['item_key', 'occurrence', 'purchased'])
      .where('environment_id', '=', environmentId)
      .where('player_id', '=', playerId)
      .where((eb) =>
        eb(
          eb.refTuple('item_key', 'occurrence'),
          'in',
          refs.map((r) => eb.tuple(r.itemKey, r.occurrence)),
        ),
      ),
  );
  return new Map(rows.map((r) => [refKey({ itemKey: r.item_key, occurrence: r.occurrence }), r.purchased]));
}

export const countOf = (counts: Map<string, number>, ref: ItemOccurrenceRef) => counts.get(refKey(ref)) ?? 0;
