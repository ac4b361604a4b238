import { createPool } from '@engage/postgres';
import { stackConfig } from '@engage/testkit';
import { afterAll, expect, it } from 'vitest';
import type { LedgerTables } from '../src/store/tables.ts';

/**
 * Every column of every table of LedgerTables, exactly: a column missing here or not in the
 * interface is a type error, so this list is the interface's, and the test holds it against the
 * schema the migrations made.
 */
const described: { [T in keyof LedgerTables]: { [C in keyof LedgerTables[T]]: true } } = {
  balances: { environment_id: true, player_id: true, balance: true, updated_at: true },
  journal: {
    entry_id: true,
    seq: true,
    organization_id: true,
    environment_id: true,
    player_id: true,
    kind: true,
    amount: true,
    balance_after: true,
    reason: true,
    idempotency_key: true,
    source_ref: true,
    created_at: true,
  },
  idempotency_keys: {
    environment_id: true,
    player_id: true,
    key: true,
    operation: true,
    request_hash: true,
    target: true,
    response_status: true,
    response_body: true,
    created_at: true,
  },
  shop_items: { environment_id: true, item_key: true, position: true, definition: true, updated_at: true },
  shop_collections: {
    environment_id: true,
    collection_key: true,
    position: true,
    definition: true,
    updated_at: true,
  },
  item_sales: { environment_id: true, item_key: true, occurrence: true, sold: true },
  player_item_purchases: {
    environment_id: true,
    player_id: true,
    item_key: true,
    occurrence: true,
    purchased: true,
  },
  purchases: {
    purchase_id: true,
    environment_id: true,
    player_id: true,
    item_key: true,
    occurrence: true,
    price: true,
    contents: true,
    entry_id: true,
    balance_after: true,
    idempotency_key: true,
    created_at: true,
  },
  reward_grants: {
    environment_id: true,
    grant_id: true,
    player_id: true,
    source: true,
    source_key: true,
    occurrence: true,
    points: true,
    outcome: true,
    entry_id: true,
    created_at: true,
  },
  player_items: {
    item_seq: true,
    environment_id: true,
    player_id: true,
    catalog_item_key: true,
    value: true,
    source: true,
    source_ref: true,
    entry_id: true,
    granted_at: true,
  },
};

const pool = createPool({ url: stackConfig().databaseUrl, schema: 'ledger', max: 1 });
afterAll(() => pool.end());

it('describes every column of the ledger tables the migrations made, and no other', async () => {
  const { rows } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'ledger' AND table_name = ANY ($1::text[])`,
    [Object.keys(described)],
  );
  const migrated = new Map<string, string[]>();
  for (const row of rows)
    migrated.set(row.table_name, [...(migrated.get(row.table_name) ?? []), row.column_name]);
  const expected = Object.entries(described).map(([table, columns]) => [table, Object.keys(columns).sort()]);
  expect(Object.fromEntries([...migrated].map(([table, columns]) => [table, columns.sort()]))).toEqual(
    Object.fromEntries(expected),
  );
});
