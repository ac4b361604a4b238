import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { PipelinedTransaction } from '@engage/postgres';
import type { KeyOperation } from '../domain/idempotency.ts';
import { occurrenceAt } from '../domain/item-occurrence.ts';
import type { OutboxRow } from '../domain/outbox-rows.ts';
import {
  type BatchEffects,
  type BatchState,
  type PurchaseOp,
  rowKey,
  type WriteOp,
} from '../domain/write-decisions.ts';

const distinct = <T>(values: T[], keyOf: (value: T) => string): T[] => [
  ...new Map(values.map((v) => [keyOf(v), v])).values(),
];

/**
 * What a batch's decisions need, in its transaction: the keys its operations name, the balances of
 * its players and the definitions of the items bought (one statement), then the counters of the
 * items with a purchase limit or a stock (a second statement, only when there are any: an item's
 * occurrence is known once its definition is). Balances and counters are locked (FOR UPDATE, in
 * key order) until the commit, so what is decided from them still holds when the batch writes.
 *
 * Each statement takes one JSON parameter: lists of rows with named fields, unpacked with
 * jsonb_to_recordset. Every row is looked up from the batch's own keys, one lateral subquery per
 * key, which no plan can turn into a scan of the table. The ledger's plans are generic, made once
 * per connection and possibly while the tables were empty; a plain join there would scan the whole
 * key index for every batch (docs/ledger.md, "Plans that do not depend on statistics").
 */
export async function readBatchState(tx: PipelinedTransaction, ops: WriteOp[]): Promise<BatchState> {
  const keyed = ops.filter((op) => op.idempotencyKey !== null);
  const players = distinct(ops, (op) => rowKey(op.environmentId, op.playerId));
  const purchases = ops.filter((op): op is PurchaseOp => op.kind === 'purchase');
  const items = distinct(purchases, (op) => rowKey(op.environmentId, op.itemKey));
  const { rows } = await tx.query<{
    keys: [string, string, string, KeyOperation, string, string, number | null, unknown][];
    balances: [string, string, number][];
    items: [string, string, MarketplaceItemDefinition][];
  }>({
    name: 'ledger.read-batch',
    text: READ_BATCH,
    values: [
      JSON.stringify({
        keys: keyed.map((op) => ({
          environment_id: op.environmentId,
          player_id: op.playerId,
          key: op.idempotencyKey,
        })),
        balances: players.map((op) => ({ environment_id: op.environmentId, player_id: op.playerId })),
        items: items.map((op) => ({ environment_id: op.environmentId, item_key: op.itemKey })),
      }),
    ],
  });
  const row = rows[0]!;
  const state: BatchState = {
    keys: new Map(
      row.keys.map(([environmentId, playerId, key, operation, target, requestHash, status, body]) => {
        // A key row is written with its response in one statement, so a committed row always has one.
        if (status === null) throw new Error('idempotency key without a stored response');
        return [
          rowKey(environmentId, playerId, key),
          { operation, target, requestHash, response: { status, body } },
        ];
      }),
    ),
    balances: new Map(
      row.balances.map(([environmentId, playerId, balance]) => [rowKey(environmentId, playerId), balance]),
    ),
    items: new Map(
      row.items.map(([environmentId, itemKey, definition]) => [rowKey(environmentId, itemKey), definition]),
    ),
    purchased: new Map(),
    sold: new Map(),
  };
  await readCounters(tx, purchases, state);
  return state;
}

const READ_BATCH = `SELECT
   (SELECT coalesce(json_agg(json_build_array(k.environment_id, k.player_id, k.key, k.operation, k.target,
                                              k.request_hash, k.response_status, k.response_body)), '[]')
    FROM jsonb_to_recordset($1::jsonb -> 'keys') AS r(environment_id uuid, player_id text, key text)
    CROSS JOIN LATERAL (SELECT * FROM idempotency_keys k
                        WHERE k.environment_id = r.environment_id AND k.player_id = r.player_id AND k.key = r.key
                        LIMIT 1) k) AS keys,
   (SELECT coalesce(json_agg(json_build_array(b.environment_id, b.player_id, b.balance)), '[]')
    FROM (SELECT * FROM jsonb_to_recordset($1::jsonb -> 'balances') AS r(environment_id uuid, player_id text)
          ORDER BY environment_id, player_id) r
    CROSS JOIN LATERAL (SELECT environment_id, player_id, balance FROM balances b
                        WHERE b.environment_id = r.environment_id AND b.player_id = r.player_id
                        FOR UPDATE) b) AS balances,
   (SELECT coalesce(json_agg(json_build_array(s.environment_id, s.item_key, s.definition)), '[]')
    FROM jsonb_to_recordset($1::jsonb -> 'items') AS r(environment_id uuid, item_key text)
    CROSS JOIN LATERAL (SELECT * FROM shop_items s
                        WHERE s.environment_id = r.environment_id AND s.item_key = r.item_key
                        LIMIT 1) s) AS items`;

/** The purchase counts of items with a limit and the units sold of items with a stock, locked. */
async function readCounters(
  tx: PipelinedTransaction,
  purchases: PurchaseOp[],
  state: BatchState,
): Promise<void> {
  const limited: { environmentId: string; playerId: string; itemKey: string; occurrence: number }[] = [];
  const stocked: { environmentId: string; itemKey: string; occurrence: number }[] = [];
  for (const op of purchases) {
    const item = state.items.get(rowKey(op.environmentId, op.itemKey));
    if (!item) continue;
    const occurrence = occurrenceAt(item, op.now).number;
    const ref = { environmentId: op.environmentId, itemKey: op.itemKey, occurrence };
    if (item.purchaseLimit !== undefined) limited.push({ ...ref, playerId: op.playerId });
    if (item.stock !== undefined) stocked.push(ref);
  }
  if (limited.length === 0 && stocked.length === 0) return;
  const counts = distinct(limited, (l) => rowKey(l.environmentId, l.playerId, l.itemKey, l.occurrence));
  const sales = distinct(stocked, (s) => rowKey(s.environmentId, s.itemKey, s.occurrence));
  const { rows } = await tx.query<{
    purchased: [string, string, string, number, number][];
    sold: [string, string, number, number][];
  }>({
    name: 'ledger.read-batch-counters',
    text: READ_COUNTERS,
    values: [
      JSON.stringify({
        purchased: counts.map((c) => ({
          environment_id: c.environmentId,
          player_id: c.playerId,
          item_key: c.itemKey,
          occurrence: c.occurrence,
        })),
        sold: sales.map((s) => ({
          environment_id: s.environmentId,
          item_key: s.itemKey,
          occurrence: s.occurrence,
        })),
      }),
    ],
  });
  for (const [environmentId, playerId, itemKey, occurrence, purchased] of rows[0]!.purchased)
    state.purchased.set(rowKey(environmentId, playerId, itemKey, occurrence), purchased);
  for (const [environmentId, itemKey, occurrence, sold] of rows[0]!.sold)
    state.sold.set(rowKey(environmentId, itemKey, occurrence), sold);
}

const READ_COUNTERS = `SELECT
   (SELECT coalesce(json_agg(json_build_array(p.environment_id, p.player_id, p.item_key, p.occurrence,
                                              p.purchased)), '[]')
    FROM (SELECT * FROM jsonb_to_recordset($1::jsonb -> 'purchased')
            AS r(environment_id uuid, player_id text, item_key text, occurrence int)
          ORDER BY environment_id, player_id, item_key, occurrence) r
    CROSS JOIN LATERAL (SELECT * FROM player_item_purchases p
                        WHERE p.environment_id = r.environment_id AND p.player_id = r.player_id
                          AND p.item_key = r.item_key AND p.occurrence = r.occurrence
                        FOR UPDATE) p) AS purchased,
   (SELECT coalesce(json_agg(json_build_array(s.environment_id, s.item_key, s.occurrence, s.sold)), '[]')
    FROM (SELECT * FROM jsonb_to_recordset($1::jsonb -> 'sold') AS r(environment_id uuid, item_key text, occurrence int)
          ORDER BY environment_id, item_key, occurrence) r
    CROSS JOIN LATERAL (SELECT * FROM item_sales s
                        WHERE s.environment_id = r.environment_id AND s.item_key = r.item_key
                          AND s.occurrence = r.occurrence
                        FOR UPDATE) s) AS sold`;

/**
 * Writes every effect of a batch in one statement and commits, in one round trip: the balances and
 * counters as decided (each update conditional on the value read, rows that did not exist inserted,
 * so another replica's insert meanwhile is a unique violation), the journal entries and outbox rows
 * in the order the operations applied, the keys with their stored answers, the purchases and the
 * items they granted. Anything other than what was read raises in the statement (migration 0005), so
 * the batch rolls back before its COMMIT and runs again, one operation at a time.
 */
export async function writeBatchEffects(
  tx: PipelinedTransaction,
  effects: BatchEffects,
  outbox: OutboxRow[],
): Promise<void> {
  await tx.commitWith({
    name: 'ledger.write-batch',
    text: WRITE_BATCH,
    values: [JSON.stringify(batchRows(effects, outbox))],
  });
}

/** The batch's rows by the CTE that writes them, each field named as in WRITE_BATCH's record types. */
function batchRows(effects: BatchEffects, outbox: OutboxRow[]) {
  const { balances, journal, keys, purchases, limitedCounts, unlimitedCounts, sales } = effects;
  return {
    balances: balances.map((b) => ({
      environment_id: b.environmentId,
      player_id: b.playerId,
      before: b.before,
      after: b.after,
    })),
    journal: journal.map((j) => ({
      entry_id: j.entryId,
      organization_id: j.organizationId,
      environment_id: j.environmentId,
      player_id: j.playerId,
      kind: j.kind,
      amount: j.amount,
      balance_after: j.balanceAfter,
      reason: j.reason,
      idempotency_key: j.idempotencyKey,
      source_ref: j.sourceRef,
      created_at: j.createdAt,
    })),
    keys: keys.map((k) => ({
      environment_id: k.environmentId,
      player_id: k.playerId,
      key: k.key,
      operation: k.claim.operation,
      request_hash: k.claim.requestHash,
      target: k.claim.target,
      response_status: k.response.status,
      // As text: the answer is kept exactly as it was sent (a json column), which jsonb would reorder.
      response_body: JSON.stringify(k.response.body),
    })),
    purchases: purchases.map((p) => ({
      purchase_id: p.purchaseId,
      environment_id: p.environmentId,
      player_id: p.playerId,
      item_key: p.itemKey,
      occurrence: p.occurrence,
      price: p.price,
      contents: p.contents,
      entry_id: p.entryId,
      balance_after: p.balanceAfter,
      idempotency_key: p.idempotencyKey,
      created_at: p.createdAt,
    })),
    granted: purchases.flatMap((p) =>
      p.contents.map((c) => ({
        environment_id: p.environmentId,
        player_id: p.playerId,
        catalog_item_key: c.catalogItemKey,
        value: c.value ?? null,
        source_ref: p.purchaseId,
        entry_id: p.entryId,
        granted_at: p.createdAt,
      })),
    ),
    limited: limitedCounts.map((c) => ({
      environment_id: c.environmentId,
      player_id: c.playerId,
      item_key: c.itemKey,
      occurrence: c.occurrence,
      before: c.before,
      after: c.after,
    })),
    unlimited: unlimitedCounts.map((c) => ({
      environment_id: c.environmentId,
      player_id: c.playerId,
      item_key: c.itemKey,
      occurrence: c.occurrence,
      added: c.added,
    })),
    sales: sales.map((s) => ({
      environment_id: s.environmentId,
      item_key: s.itemKey,
      occurrence: s.occurrence,
      before: s.before,
      after: s.after,
    })),
    outbox: outbox.map((r) => ({
      topic: r.topic,
      key: r.key,
      value: r.value.toString('base64'),
      headers: r.headers,
    })),
  };
}

/**
 * Rows listed in order (journal entries, granted items, outbox records) are numbered WITH
 * ORDINALITY and inserted in that order, so the journal's seq and the outbox's ids follow the
 * order the operations applied. The updates of rows that were read count the rows they found
 * (`RETURNING 1`) against the rows read: a difference means a row changed after the read.
 */
const WRITE_BATCH = `WITH balance_rows AS (
   SELECT v.* FROM jsonb_to_recordset($1::jsonb -> 'balances')
     AS v(environment_id uuid, player_id text, before bigint, after bigint)
 ), balances_updated AS (
   UPDATE balances b SET balance = v.after, updated_at = now() FROM balance_rows v
   WHERE v.before IS NOT NULL AND b.environment_id = v.environment_id AND b.player_id = v.player_id
     AND b.balance = v.before
   RETURNING 1
 ), balances_inserted AS (
   INSERT INTO balances (environment_id, player_id, balance, updated_at)
   SELECT environment_id, player_id, after, now() FROM balance_rows WHERE before IS NULL
 ), journal_entries AS (
   INSERT INTO journal (entry_id, organization_id, environment_id, player_id, kind, amount, balance_after,
                        reason, idempotency_key, source_ref, created_at)
   SELECT v.entry_id, v.organization_id, v.environment_id, v.player_id, v.kind, v.amount, v.balance_after,
          v.reason, v.idempotency_key, v.source_ref, v.created_at
   FROM ROWS FROM (jsonb_to_recordset($1::jsonb -> 'journal')
     AS (entry_id uuid, organization_id uuid, environment_id uuid, player_id text, kind text, amount bigint,
         balance_after bigint, reason text, idempotency_key text, source_ref text, created_at timestamptz))
     WITH ORDINALITY AS v(entry_id, organization_id, environment_id, player_id, kind, amount, balance_after,
                          reason, idempotency_key, source_ref, created_at, n)
   ORDER BY v.n
 ), claimed AS (
   INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target,
                                 response_status, response_body)
   SELECT v.environment_id, v.player_id, v.key, v.operation, v.request_hash, v.target, v.response_status,
          v.response_body::json
   FROM jsonb_to_recordset($1::jsonb -> 'keys')
     AS v(environment_id uuid, player_id text, key text, operation text, request_hash text, target text,
          response_status int, response_body text)
 ), purchase_rows AS (
   INSERT INTO purchases (purchase_id, environment_id, player_id, item_key, occurrence, price, contents,
                          entry_id, balance_after, idempotency_key, created_at)
   SELECT v.purchase_id, v.environment_id, v.player_id, v.item_key, v.occurrence, v.price, v.contents,
          v.entry_id, v.balance_after, v.idempotency_key, v.created_at
   FROM jsonb_to_recordset($1::jsonb -> 'purchases')
     AS v(purchase_id uuid, environment_id uuid, player_id text, item_key text, occurrence int, price bigint,
          contents jsonb, entry_id uuid, balance_after bigint, idempotency_key text, created_at timestamptz)
 ), granted AS (
   INSERT INTO player_items (environment_id, player_id, catalog_item_key, value, source, source_ref, entry_id,
                             granted_at)
   SELECT v.environment_id, v.player_id, v.catalog_item_key, coalesce(v.value, 'null'::jsonb), 'purchase',
          v.source_ref, v.entry_id, v.granted_at
   FROM ROWS FROM (jsonb_to_recordset($1::jsonb -> 'granted')
     AS (environment_id uuid, player_id text, catalog_item_key text, value jsonb, source_ref text,
         entry_id uuid, granted_at timestamptz))
     WITH ORDINALITY AS v(environment_id, player_id, catalog_item_key, value, source_ref, entry_id, granted_at, n)
   ORDER BY v.n
 ), limited_rows AS (
   SELECT v.* FROM jsonb_to_recordset($1::jsonb -> 'limited')
     AS v(environment_id uuid, player_id text, item_key text, occurrence int, before int, after int)
 ), limited_updated AS (
   UPDATE player_item_purchases t SET purchased = v.after FROM limited_rows v
   WHERE v.before IS NOT NULL AND (t.environment_id, t.player_id, t.item_key, t.occurrence)
         = (v.environment_id, v.player_id, v.item_key, v.occurrence) AND t.purchased = v.before
   RETURNING 1
 ), limited_inserted AS (
   INSERT INTO player_item_purchases (environment_id, player_id, item_key, occurrence, purchased)
   SELECT environment_id, player_id, item_key, occurrence, after FROM limited_rows WHERE before IS NULL
 ), unlimited_counted AS (
   INSERT INTO player_item_purchases AS t (environment_id, player_id, item_key, occurrence, purchased)
   SELECT v.environment_id, v.player_id, v.item_key, v.occurrence, v.added
   FROM jsonb_to_recordset($1::jsonb -> 'unlimited')
     AS v(environment_id uuid, player_id text, item_key text, occurrence int, added int)
   ON CONFLICT (environment_id, player_id, item_key, occurrence)
   DO UPDATE SET purchased = t.purchased + EXCLUDED.purchased
 ), sale_rows AS (
   SELECT v.* FROM jsonb_to_recordset($1::jsonb -> 'sales')
     AS v(environment_id uuid, item_key text, occurrence int, before int, after int)
 ), sales_updated AS (
   UPDATE item_sales t SET sold = v.after FROM sale_rows v
   WHERE v.before IS NOT NULL AND (t.environment_id, t.item_key, t.occurrence)
         = (v.environment_id, v.item_key, v.occurrence) AND t.sold = v.before
   RETURNING 1
 ), sales_inserted AS (
   INSERT INTO item_sales (environment_id, item_key, occurrence, sold)
   SELECT environment_id, item_key, occurrence, after FROM sale_rows WHERE before IS NULL
 ), published AS (
   INSERT INTO outbox (topic, key, value, headers)
   SELECT v.topic, v.key, decode(v.value, 'base64'), v.headers
   FROM ROWS FROM (jsonb_to_recordset($1::jsonb -> 'outbox') AS (topic text, key text, value text, headers jsonb))
     WITH ORDINALITY AS v(topic, key, value, headers, n)
   ORDER BY v.n
 )
 SELECT batch_written_as_read(
   (SELECT count(*) FROM balances_updated) = (SELECT count(*) FROM balance_rows WHERE before IS NOT NULL)
   AND (SELECT count(*) FROM limited_updated) = (SELECT count(*) FROM limited_rows WHERE before IS NOT NULL)
   AND (SELECT count(*) FROM sales_updated) = (SELECT count(*) FROM sale_rows WHERE before IS NOT NULL))`;
