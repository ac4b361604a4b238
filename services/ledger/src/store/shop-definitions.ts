import type {
  MarketplaceCollectionDefinition,
  MarketplaceItemDefinition,
} from '@engage/contracts/environment/shop.ts';
import { execute, type Pool, type PoolClient } from '@engage/postgres';
import { sql } from 'kysely';
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

/** Makes the environment's items exactly `items`, in their order: the others are removed. */
export async function replaceItems(
  client: PoolClient,
  environmentId: string,
  items: MarketplaceItemDefinition[],
): Promise<void> {
  const keys = items.map((item) => item.key);
  await execute(
    client,
    ledgerSql
      .deleteFrom('shop_items')
      .where('environment_id', '=', environmentId)
      .$if(keys.length > 0, (query) => query.where('item_key', 'not in', keys)),
  );
  if (items.length === 0) return;
  await execute(
    client,
    ledgerSql
      .insertInto('shop_items')
      .values(
        items.map((definition, position) => ({
          environment_id: environmentId,
          item_key: definition.key,
          position,
          definition: JSON.stringify(definition),
        })),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['environment_id', 'item_key'])
          .doUpdateSet(changedRow)
          .where(sql<boolean>`(shop_items.position, shop_items.definition)
                              IS DISTINCT FROM (excluded.position, excluded.definition)`),
      ),
  );
}

/** Makes the environment's collections exactly `collections`, in their order: the others are removed. */
export async function replaceCollections(
  client: PoolClient,
  environmentId: string,
  collections: MarketplaceCollectionDefinition[],
): Promise<void> {
  const keys = collections.map((collection) => collection.key);
  await execute(
    client,
    ledgerSql
      .deleteFrom('shop_collections')
      .where('environment_id', '=', environmentId)
      .$if(keys.length > 0, (query) => query.where('collection_key', 'not in', keys)),
  );
  if (collections.length === 0) return;
  await execute(
    client,
    ledgerSql
      .insertInto('shop_collections')
      .values(
        collections.map((definition, position) => ({
          environment_id: environmentId,
          collection_key: definition.key,
          position,
          definition: JSON.stringify(definition),
        })),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['environment_id', 'collection_key'])
          .doUpdateSet(changedRow)
          .where(sql<boolean>`(shop_collections.position, shop_collections.definition)
                              IS DISTINCT FROM (excluded.position, excluded.definition)`),
      ),
  );
}

/** A definition row applied again: its new position and definition (only written when they differ). */
const changedRow = {
  position: sql<number>`excluded.position`,
  definition: sql<string>`excluded.definition`,
  updated_at: sql<Date>`now()`,
};
