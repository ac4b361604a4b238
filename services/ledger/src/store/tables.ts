import type {
  ContentValue,
  MarketplaceCollectionDefinition,
  MarketplaceItemDefinition,
} from '@engage/contracts/environment/shop.ts';
import { sqlBuilder } from '@engage/postgres';
import type { ColumnType, Generated } from 'kysely';
import type { KeyOperation } from '../domain/idempotency.ts';

/** A column written as JSON text (a parameter) and read back as a value. */
type Json<T> = ColumnType<T, string, string>;

/**
 * The ledger schema's tables as `migrations/` leave them (column names, and the types `pg` reads
 * them as: bigint as a number, timestamptz as a Date, json as a value), for the typed builder.
 */
export interface LedgerTables {
  balances: {
    environment_id: string;
    player_id: string;
    balance: number;
    updated_at: Generated<Date>;
  };
  journal: {
    entry_id: string;
    seq: ColumnType<number, never, never>;
    organization_id: string;
    environment_id: string;
    player_id: string;
    kind: 'adjustment' | 'purchase' | 'reward';
    amount: number;
    balance_after: number;
    reason: string | null;
    idempotency_key: string | null;
    source_ref: string | null;
    created_at: Generated<Date>;
  };
  idempotency_keys: {
    environment_id: string;
    player_id: string;
    key: string;
    operation: KeyOperation;
    request_hash: string;
    target: string;
    response_status: number | null;
    /** json (not jsonb): the answer exactly as it was sent. */
    response_body: Json<unknown> | null;
    created_at: Generated<Date>;
  };
  shop_items: {
    environment_id: string;
    item_key: string;
    position: number;
    definition: Json<MarketplaceItemDefinition>;
    updated_at: Generated<Date>;
  };
  shop_collections: {
    environment_id: string;
    collection_key: string;
    position: number;
    definition: Json<MarketplaceCollectionDefinition>;
    updated_at: Generated<Date>;
  };
  item_sales: {
    environment_id: string;
    item_key: string;
    occurrence: number;
    sold: number;
  };
  player_item_purchases: {
    environment_id: string;
    player_id: string;
    item_key: string;
    occurrence: number;
    purchased: number;
  };
  purchases: {
    purchase_id: string;
    environment_id: string;
    player_id: string;
    item_key: string;
    occurrence: number;
    price: number;
    contents: Json<unknown>;
    entry_id: string | null;
    balance_after: number;
    idempotency_key: string | null;
    created_at: Generated<Date>;
  };
  reward_grants: {
    environment_id: string;
    grant_id: string;
    player_id: string;
    source: string;
    source_key: string;
    occurrence: number;
    points: number;
    outcome: 'credited' | 'nothing_to_credit' | 'balance_limit_reached';
    entry_id: string | null;
    created_at: Generated<Date>;
  };
  player_items: {
    item_seq: ColumnType<number, never, never>;
    environment_id: string;
    player_id: string;
    catalog_item_key: string;
    /** The typed value; JSON null when a reward named an item without one. */
    value: Json<ContentValue | null>;
    source: 'purchase' | 'reward';
    source_ref: string;
    entry_id: string | null;
    granted_at: Generated<Date>;
  };
}

/** The typed builder over the ledger's tables: it writes SQL text and values, the caller runs it. */
export const ledgerSql = sqlBuilder<LedgerTables>();
