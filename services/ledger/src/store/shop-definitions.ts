import type {
  MarketplaceCollectionDefinition,
  MarketplaceItemDefinition,
  MarketplaceSection,
} from '@engage/contracts/environment/shop.ts';
import type { SectionItemChange } from '@engage/kit';
import { type Pool, type PoolClient, withTransaction } from '@engage/postgres';

type Db = Pool | PoolClient;

export interface ShopDefinitions {
  /** In the order the file lists them (the main shop's order). */
  items: MarketplaceItemDefinition[];
  collections: MarketplaceCollectionDefinition[];
}

export async function loadShop(db: Db, environmentId: string): Promise<ShopDefinitions> {
  const [items, collections] = await Promise.all([
    db.query<{ definition: MarketplaceItemDefinition }>(
      'SELECT definition FROM shop_items WHERE environment_id = $1 ORDER BY position',
      [environmentId],
    ),
    db.query<{ definition: MarketplaceCollectionDefinition }>(
      'SELECT definition FROM shop_collections WHERE environment_id = $1 ORDER BY position',
      [environmentId],
    ),
  ]);
  return {
    items: items.rows.map((r) => r.definition),
    collections: collections.rows.map((r) => r.definition),
  };
}

export async function loadItem(
  db: Db,
  environmentId: string,
  itemKey: string,
): Promise<MarketplaceItemDefinition | undefined> {
  const { rows } = await db.query<{ definition: MarketplaceItemDefinition }>(
    'SELECT definition FROM shop_items WHERE environment_id = $1 AND item_key = $2',
    [environmentId, itemKey],
  );
  return rows[0]?.definition;
}

export async function loadCollection(
  db: Db,
  environmentId: string,
  collectionKey: string,
): Promise<MarketplaceCollectionDefinition | undefined> {
  const { rows } = await db.query<{ definition: MarketplaceCollectionDefinition }>(
    'SELECT definition FROM shop_collections WHERE environment_id = $1 AND collection_key = $2',
    [environmentId, collectionKey],
  );
  return rows[0]?.definition;
}

/**
 * Applies the `marketplace` section: the section replaces the shop, so what it does not name is
 * removed. Returns every item's and collection's change; with `dryRun` nothing is written.
 */
export async function applyShop(
  pool: Pool,
  environmentId: string,
  section: MarketplaceSection,
  dryRun: boolean,
): Promise<SectionItemChange[]> {
  return withTransaction(pool, async (client) => {
    // One apply at a time per environment, so two concurrent applies cannot interleave their rows.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ledger.shop:${environmentId}`]);
    const current = await loadShop(client, environmentId);
    const changes = [
      ...diff('marketplace.items', current.items, section.items),
      ...diff('marketplace.collections', current.collections, section.collections),
    ];
    if (dryRun) return changes;
    await replaceRows(client, 'shop_items', 'item_key', environmentId, section.items);
    await replaceRows(client, 'shop_collections', 'collection_key', environmentId, section.collections);
    return changes;
  });
}

async function replaceRows(
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

function diff<T extends { key: string }>(section: string, current: T[], next: T[]): SectionItemChange[] {
  const before = new Map(current.map((entry) => [entry.key, entry]));
  const changes: SectionItemChange[] = next.map((entry) => {
    const old = before.get(entry.key);
    if (!old) return { section, key: entry.key, change: 'created', fields: [] };
    const fields = changedFields(old, entry);
    return { section, key: entry.key, change: fields.length > 0 ? 'updated' : 'unchanged', fields };
  });
  const kept = new Set(next.map((entry) => entry.key));
  for (const entry of current) {
    if (!kept.has(entry.key)) changes.push({ section, key: entry.key, change: 'removed', fields: [] });
  }
  return changes;
}

function changedFields(before: object, after: object): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((name) => canonical(a[name]) !== canonical(b[name])).sort();
}

/** JSON with object keys sorted, so jsonb's key order does not count as a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y)),
        )
      : v,
  );
}
