import type { ContentValue, MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { PoolClient } from '@engage/postgres';
import type { KeyClaim, StoredResponse } from '../domain/idempotency.ts';
import type { StoredKeyRow } from './idempotency-keys.ts';

/** What a purchase reads before deciding anything: the item's definition and the key's owner. */
export interface PurchaseContext {
  item: MarketplaceItemDefinition | undefined;
  keyUsed: StoredKeyRow | undefined;
}

export async function loadPurchaseContext(
  client: PoolClient,
  ref: { environmentId: string; playerId: string; itemKey: string; key: string | null },
): Promise<PurchaseContext> {
  const { rows } = await client.query<{
    definition: MarketplaceItemDefinition | null;
    key_used: StoredKeyRow | null;
  }>({
    name: 'ledger.load-purchase-context',
    text: `SELECT (SELECT definition FROM shop_items WHERE environment_id = $1 AND item_key = $3) AS definition,
            (SELECT row_to_json(k) FROM (
               SELECT operation, target, request_hash, response_status, response_body FROM idempotency_keys
               WHERE $4::text IS NOT NULL AND environment_id = $1 AND player_id = $2 AND key = $4) k) AS key_used`,
    values: [ref.environmentId, ref.playerId, ref.itemKey, ref.key],
  });
  return { item: rows[0]?.definition ?? undefined, keyUsed: rows[0]?.key_used ?? undefined };
}

export interface PurchaseWrite {
  purchaseId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  idempotencyKey: string | null;
  claim: KeyClaim;
  itemKey: string;
  occurrence: number;
  price: number;
  purchaseLimit: number | undefined;
  stock: number | undefined;
  contents: { catalogItemKey: string; value: ContentValue }[];
  /** The journal entry of the charge; null for a free item. */
  entryId: string | null;
  reason: string;
  createdAt: Date;
  /** The answer without its balance, which the statement adds. */
  answer: Record<string, unknown>;
}

export type PurchaseWritten =
  | { keyUsed: StoredKeyRow }
  | { balanceAfter: number }
  | {
      refused: 'insufficient_balance' | 'purchase_limit_reached' | 'out_of_stock';
      balance: number;
      /** What the statement wrote before the refusal, to be undone by refusePurchase. */
      debited: boolean;
      counted: boolean;
    };

/**
 * A purchase in one statement, each effect a conditional statement gated on the one before: unless the
 * key is already used, debit the balance (the player's row), count the player's purchase against the
 * limit, take a unit of stock (the shared row, last, and only for an item with a stock: unlimited items
 * lock no shared row). When all hold: the journal entry (for a price above 0), the purchase, the items
 * granted, and the key with its answer. A refusal leaves the effects before it, which refusePurchase
 * undoes in the same transaction.
 */
export async function writePurchase(client: PoolClient, p: PurchaseWrite): Promise<PurchaseWritten> {
  const { rows } = await client.query<{
    key_used: StoredKeyRow | null;
    balance: number | null;
    paid: boolean;
    counted: boolean;
    balance_after: number | null;
  }>({
    name: 'ledger.write-purchase',
    text: `WITH key_used AS (
       SELECT operation, target, request_hash, response_status, response_body FROM idempotency_keys
       WHERE $3::text IS NOT NULL AND environment_id = $1 AND player_id = $2 AND key = $3
     ), paying AS (
       SELECT WHERE NOT EXISTS (SELECT FROM key_used)
     ), debited AS (
       UPDATE balances SET balance = balance - $6::bigint, updated_at = now()
       WHERE $6::bigint > 0 AND EXISTS (SELECT FROM paying)
         AND environment_id = $1 AND player_id = $2 AND balance >= $6::bigint
       RETURNING balance
     ), paid AS (
       SELECT balance FROM debited
       UNION ALL
       SELECT coalesce((SELECT balance FROM balances WHERE environment_id = $1 AND player_id = $2), 0)
       FROM paying WHERE $6::bigint = 0
     ), counted AS (
       INSERT INTO player_item_purchases AS t (environment_id, player_id, item_key, occurrence, purchased)
       SELECT $1, $2, $5, $9, 1 FROM paid WHERE $7::int IS NULL OR $7::int >= 1
       ON CONFLICT (environment_id, player_id, item_key, occurrence)
       DO UPDATE SET purchased = t.purchased + 1 WHERE $7::int IS NULL OR t.purchased + 1 <= $7::int
       RETURNING 1
     ), taken AS (
       INSERT INTO item_sales AS t (environment_id, item_key, occurrence, sold)
       SELECT $1, $5, $9, 1 FROM counted WHERE $8::int >= 1
       ON CONFLICT (environment_id, item_key, occurrence)
       DO UPDATE SET sold = t.sold + 1 WHERE t.sold + 1 <= $8::int
       RETURNING 1
     ), bought AS (
       SELECT balance FROM paid
       WHERE EXISTS (SELECT FROM counted) AND ($8::int IS NULL OR EXISTS (SELECT FROM taken))
     ), journal_entry AS (
       INSERT INTO journal (entry_id, organization_id, environment_id, player_id, kind, amount, balance_after,
                            reason, idempotency_key, source_ref, created_at)
       SELECT $11::uuid, $12, $1, $2, 'purchase', -$6::bigint, balance, $13, $3, $10::text, $15
       FROM bought WHERE $11::uuid IS NOT NULL
     ), purchase AS (
       INSERT INTO purchases (purchase_id, environment_id, player_id, item_key, occurrence, price, contents,
                              entry_id, balance_after, idempotency_key, created_at)
       SELECT $10::text::uuid, $1, $2, $5, $9, $6::bigint, $14::jsonb, $11::uuid, balance, $3, $15 FROM bought
     ), granted AS (
       INSERT INTO player_items (environment_id, player_id, catalog_item_key, value, source, source_ref, entry_id,
                                 granted_at)
       SELECT $1, $2, i.catalog_item_key, coalesce(i.value, 'null'::jsonb), 'purchase', $10::text, $11::uuid, $15
       FROM bought, jsonb_to_recordset($17::jsonb) AS i(catalog_item_key text, value jsonb)
     ), claimed AS (
       INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target,
                                     response_status, response_body)
       SELECT $1, $2, $3, 'purchase', $4, $5, 200, $16::jsonb || jsonb_build_object('balance', balance)
       FROM bought WHERE $3::text IS NOT NULL
     )
     SELECT (SELECT row_to_json(key_used) FROM key_used) AS key_used,
            (SELECT balance FROM balances WHERE environment_id = $1 AND player_id = $2) AS balance,
            EXISTS (SELECT FROM paid) AS paid,
            EXISTS (SELECT FROM counted) AS counted,
            (SELECT balance FROM bought) AS balance_after`,
    values: [
      p.environmentId,
      p.playerId,
      p.idempotencyKey,
      p.claim.requestHash,
      p.itemKey,
      p.price,
      p.purchaseLimit ?? null,
      p.stock ?? null,
      p.occurrence,
      p.purchaseId,
      p.entryId,
      p.organizationId,
      p.reason,
      JSON.stringify(p.contents),
      p.createdAt,
      JSON.stringify(p.answer),
      JSON.stringify(p.contents.map((c) => ({ catalog_item_key: c.catalogItemKey, value: c.value }))),
    ],
  });
  const row = rows[0]!;
  if (row.key_used) return { keyUsed: row.key_used };
  if (row.balance_after !== null) return { balanceAfter: row.balance_after };
  const balance = row.balance ?? 0;
  const debited = row.paid && p.price > 0;
  if (!row.paid) return { refused: 'insufficient_balance', balance, debited: false, counted: false };
  if (!row.counted) return { refused: 'purchase_limit_reached', balance, debited, counted: false };
  return { refused: 'out_of_stock', balance, debited, counted: true };
}

/**
 * Undoes what writePurchase wrote before its refusal (the debit, the player's count) and claims the
 * key with the refusal as its answer, in one statement of the same transaction: nothing of a refused
 * purchase reaches the commit but its answer.
 */
export async function refusePurchase(
  client: PoolClient,
  p: PurchaseWrite,
  undo: { debited: boolean; counted: boolean },
  response: StoredResponse,
): Promise<void> {
  await client.query({
    name: 'ledger.refuse-purchase',
    text: `WITH refund AS (
       UPDATE balances SET balance = balance + $6::bigint
       WHERE $10::boolean AND environment_id = $1 AND player_id = $2
     ), uncount AS (
       UPDATE player_item_purchases SET purchased = purchased - 1
       WHERE $11::boolean AND environment_id = $1 AND player_id = $2 AND item_key = $5 AND occurrence = $7
     ), claimed AS (
       INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target,
                                     response_status, response_body)
       SELECT $1, $2, $3, 'purchase', $4, $5, $8, $9::jsonb WHERE $3::text IS NOT NULL
     )
     SELECT 1`,
    values: [
      p.environmentId,
      p.playerId,
      p.idempotencyKey,
      p.claim.requestHash,
      p.itemKey,
      p.price,
      p.occurrence,
      response.status,
      JSON.stringify(response.body),
      undo.debited,
      undo.counted,
    ],
  });
}
