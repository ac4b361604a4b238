import type {
  MarketplaceCollectionDefinition,
  MarketplaceItemDefinition,
} from '@engage/contracts/environment/shop.ts';
import { execute, type Pool, type PoolClient } from '@engage/postgres';
import { ledgerSql } from './tables.ts';

type Db = Pool | PoolClient;

export interface ShopDefinitions {
  /** In the order the file lists them (the main shop's order). */
  items: MarketplaceItemDefinition[];
  collections: MarketplaceCollectionDefinition[];
}

export async function loadShop(db: Db, environmentId: string): Promise<ShopDefinitions> {
  const [items, collections] = await Promise.all([
    execute(
      db,
      ledgerSql
        .selectFrom('shop_items')
        .select('definition')
        .where('environment_id', '=', environmentId)
        .orderBy('position'),
    ),
    execute(
      db,
      ledgerSql
        .selectFrom('shop_collections')
        .select('definition')
        .where('environment_id', '=', environmentId)
        .orderBy('position'),
    ),
  ]);
  return {
    items: items.map((r) => r.definition),
    collections: collections.map((r) => r.definition),
  };
}

export async function loadItem(
  db: Db,
  environmentId: string,
  itemKey: string,
): Promise<MarketplaceItemDefinition | undefined> {
  const [row] = await execute(
    db,
    ledgerSql
      .selectFrom('shop_items')
      .select('definition')
      .where('environment_id', '=', environmentId)
      .where('item_key', '=', itemKey),
  );
  return row?.definition;
}

export async function loadCollection(
  db: Db,
  environmentId: string,
  collectionKey: string,
): Promise<MarketplaceCollectionDefinition | undefined> {
  const [row] = await execute(
    db,
    ledgerSql
      .selectFrom('shop_collections')
      .select('definition')
      .where('environment_id', '=', environmentId)
      .where('collection_key', '=', collectionKey),
  );
  return row?.definition;
}

/** One apply at a time per environment: two concurrent applies cannot interleave their rows. */
export async function lockShop(client: PoolClient, environmentId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ledger.shop:${environmentId}`]);
}

/** Makes the shop's `table` hold exactly `entries`, in their order: the others are removed. */
export async function replaceRows(
  client: PoolClient,
  table: 'shop_items' | 'shop_collections',
  keyColumn: 'item_key' | 'collection_key',
  environmentId: string,
  entries: { key: string }[],
): Promise<void> {
  await client.query(
    `DELETE FROM ${table} WHERE environment_id = $1 AND NOT (${keyColumn} = ANY($2::text[]))`,
    [environmentId, entries.map((e) => e.key)],
  );
  if (entries.length === 0) return;
  await client.query(
    `INSERT INTO ${table} (environment_id, ${keyColumn}, position, definition)
     SELECT $1, e.key, e.position, e.definition
     FROM jsonb_to_recordset($2::jsonb) AS e(key text, position integer, definition jsonb)
     ON CONFLICT (environment_id, ${keyColumn})
     DO UPDATE SET position = EXCLUDED.position, definition = EXCLUDED.definition, updated_at = now()
     WHERE (${table}.position, ${table}.definition) IS DISTINCT FROM (EXCLUDED.position, EXCLUDED.definition)`,
    [
      environmentId,
      JSON.stringify(entries.map((definition, position) => ({ key: definition.key, position, definition }))),
    ],
  );
}
