import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { PipelinedTransaction } from '@engage/postgres';
import type { KeyOperation } from '../domain/idempotency.ts';
import { occurrenceAt } from '../domain/item-occurrence.ts';
import type { OutboxRow } from '../domain/journal-outbox.ts';
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
 * Every row is looked up from the batch's own keys, one lateral subquery per key, which no plan can
 * turn into a scan of the table. The ledger's plans are generic, made once per connection and
 * possibly while the tables were empty; a plain join there would scan the whole key index for every
 * batch (docs/ledger.md, "Plans that do not depend on statistics").
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
    text: `SELECT
       (SELECT coalesce(json_agg(json_build_array(k.environment_id, k.player_id, k.key, k.operation, k.target,
                                                  k.request_hash, k.response_status, k.response_body)), '[]')
        FROM unnest($1::uuid[], $2::text[], $3::text[]) AS r(environment_id, player_id, key)
        CROSS JOIN LATERAL (SELECT * FROM idempotency_keys k
                            WHERE k.environment_id = r.environment_id AND k.player_id = r.player_id AND k.key = r.key
                            LIMIT 1) k) AS keys,
       (SELECT coalesce(json_agg(json_build_array(b.environment_id, b.player_id, b.balance)), '[]')
        FROM (SELECT * FROM unnest($4::uuid[], $5::text[]) AS r(environment_id, player_id)
              ORDER BY environment_id, player_id) r
        CROSS JOIN LATERAL (SELECT environment_id, player_id, balance FROM balances b
                            WHERE b.environment_id = r.environment_id AND b.player_id = r.player_id
                            FOR UPDATE) b) AS balances,
       (SELECT coalesce(json_agg(json_build_array(s.environment_id, s.item_key, s.definition)), '[]')
        FROM unnest($6::uuid[], $7::text[]) AS r(environment_id, item_key)
        CROSS JOIN LATERAL (SELECT * FROM shop_items s
                            WHERE s.environment_id = r.environment_id AND s.item_key = r.item_key
                            LIMIT 1) s) AS items`,
    values: [
      keyed.map((op) => op.environmentId),
      keyed.map((op) => op.playerId),
      keyed.map((op) => op.idempotencyKey),
      players.map((op) => op.environmentId),
      players.map((op) => op.playerId),
      items.map((op) => op.environmentId),
      items.map((op) => op.itemKey),
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
    text: `SELECT
       (SELECT coalesce(json_agg(json_build_array(p.environment_id, p.player_id, p.item_key, p.occurrence,
                                                  p.purchased)), '[]')
        FROM (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[])
                AS r(environment_id, player_id, item_key, occurrence)
              ORDER BY environment_id, player_id, item_key, occurrence) r
        CROSS JOIN LATERAL (SELECT * FROM player_item_purchases p
                            WHERE p.environment_id = r.environment_id AND p.player_id = r.player_id
                              AND p.item_key = r.item_key AND p.occurrence = r.occurrence
                            FOR UPDATE) p) AS purchased,
       (SELECT coalesce(json_agg(json_build_array(s.environment_id, s.item_key, s.occurrence, s.sold)), '[]')
        FROM (SELECT * FROM unnest($5::uuid[], $6::text[], $7::int[]) AS r(environment_id, item_key, occurrence)
              ORDER BY environment_id, item_key, occurrence) r
        CROSS JOIN LATERAL (SELECT * FROM item_sales s
                            WHERE s.environment_id = r.environment_id AND s.item_key = r.item_key
                              AND s.occurrence = r.occurrence
                            FOR UPDATE) s) AS sold`,
    values: [
      counts.map((l) => l.environmentId),
      counts.map((l) => l.playerId),
      counts.map((l) => l.itemKey),
      counts.map((l) => l.occurrence),
      sales.map((s) => s.environmentId),
      sales.map((s) => s.itemKey),
      sales.map((s) => s.occurrence),
    ],
  });
  for (const [environmentId, playerId, itemKey, occurrence, purchased] of rows[0]!.purchased)
    state.purchased.set(rowKey(environmentId, playerId, itemKey, occurrence), purchased);
  for (const [environmentId, itemKey, occurrence, sold] of rows[0]!.sold)
    state.sold.set(rowKey(environmentId, itemKey, occurrence), sold);
}

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
  const { balances, journal, keys, purchases, limitedCounts, unlimitedCounts, sales } = effects;
  const granted = purchases.flatMap((p) =>
    p.contents.map((c) => ({ purchase: p, catalogItemKey: c.catalogItemKey, value: c.value })),
  );
  const expected = (changes: { before: number | null }[]) => changes.filter((c) => c.before !== null).length;
  await tx.commitWith({
    name: 'ledger.write-batch',
    text: `WITH balance_rows AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) AS v(environment_id, player_id, before, after)
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
       SELECT e, o, env, p, k, a, b, r, i, s, c
       FROM unnest($5::uuid[], $6::uuid[], $7::uuid[], $8::text[], $9::text[], $10::bigint[], $11::bigint[],
                   $12::text[], $13::text[], $14::text[], $15::timestamptz[])
            WITH ORDINALITY AS v(e, o, env, p, k, a, b, r, i, s, c, n)
       ORDER BY n
     ), claimed AS (
       INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target,
                                     response_status, response_body)
       SELECT * FROM unnest($16::uuid[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[],
                            $22::int[], $23::json[])
     ), purchase_rows AS (
       INSERT INTO purchases (purchase_id, environment_id, player_id, item_key, occurrence, price, contents,
                              entry_id, balance_after, idempotency_key, created_at)
       SELECT * FROM unnest($24::uuid[], $25::uuid[], $26::text[], $27::text[], $28::int[], $29::bigint[],
                            $30::jsonb[], $31::uuid[], $32::bigint[], $33::text[], $34::timestamptz[])
     ), granted AS (
       INSERT INTO player_items (environment_id, player_id, catalog_item_key, value, source, source_ref, entry_id,
                                 granted_at)
       SELECT env, p, k, val, 'purchase', s, e, g
       FROM unnest($35::uuid[], $36::text[], $37::text[], $38::jsonb[], $39::text[], $40::uuid[],
                   $41::timestamptz[]) WITH ORDINALITY AS v(env, p, k, val, s, e, g, n)
       ORDER BY n
     ), limited_rows AS (
       SELECT * FROM unnest($42::uuid[], $43::text[], $44::text[], $45::int[], $46::int[], $47::int[])
         AS v(environment_id, player_id, item_key, occurrence, before, after)
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
       SELECT * FROM unnest($48::uuid[], $49::text[], $50::text[], $51::int[], $52::int[])
       ON CONFLICT (environment_id, player_id, item_key, occurrence)
       DO UPDATE SET purchased = t.purchased + EXCLUDED.purchased
     ), sale_rows AS (
       SELECT * FROM unnest($53::uuid[], $54::text[], $55::int[], $56::int[], $57::int[])
         AS v(environment_id, item_key, occurrence, before, after)
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
       SELECT t, k, v, h FROM unnest($58::text[], $59::text[], $60::bytea[], $61::jsonb[])
         WITH ORDINALITY AS o(t, k, v, h, n)
       ORDER BY n
     )
     SELECT batch_written_as_read((SELECT count(*) FROM balances_updated) = $62
                                  AND (SELECT count(*) FROM limited_updated) = $63
                                  AND (SELECT count(*) FROM sales_updated) = $64)`,
    values: [
      balances.map((b) => b.environmentId),
      balances.map((b) => b.playerId),
      balances.map((b) => b.before),
      balances.map((b) => b.after),
      journal.map((j) => j.entryId),
      journal.map((j) => j.organizationId),
      journal.map((j) => j.environmentId),
      journal.map((j) => j.playerId),
      journal.map((j) => j.kind),
      journal.map((j) => j.amount),
      journal.map((j) => j.balanceAfter),
      journal.map((j) => j.reason),
      journal.map((j) => j.idempotencyKey),
      journal.map((j) => j.sourceRef),
      journal.map((j) => j.createdAt),
      keys.map((k) => k.environmentId),
      keys.map((k) => k.playerId),
      keys.map((k) => k.key),
      keys.map((k) => k.claim.operation),
      keys.map((k) => k.claim.requestHash),
      keys.map((k) => k.claim.target),
      keys.map((k) => k.response.status),
      keys.map((k) => JSON.stringify(k.response.body)),
      purchases.map((p) => p.purchaseId),
      purchases.map((p) => p.environmentId),
      purchases.map((p) => p.playerId),
      purchases.map((p) => p.itemKey),
      purchases.map((p) => p.occurrence),
      purchases.map((p) => p.price),
      purchases.map((p) => JSON.stringify(p.contents)),
      purchases.map((p) => p.entryId),
      purchases.map((p) => p.balanceAfter),
      purchases.map((p) => p.idempotencyKey),
      purchases.map((p) => p.createdAt),
      granted.map((g) => g.purchase.environmentId),
      granted.map((g) => g.purchase.playerId),
      granted.map((g) => g.catalogItemKey),
      granted.map((g) => JSON.stringify(g.value ?? null)),
      granted.map((g) => g.purchase.purchaseId),
      granted.map((g) => g.purchase.entryId),
      granted.map((g) => g.purchase.createdAt),
      limitedCounts.map((c) => c.environmentId),
      limitedCounts.map((c) => c.playerId),
      limitedCounts.map((c) => c.itemKey),
      limitedCounts.map((c) => c.occurrence),
      limitedCounts.map((c) => c.before),
      limitedCounts.map((c) => c.after),
      unlimitedCounts.map((c) => c.environmentId),
      unlimitedCounts.map((c) => c.playerId),
      unlimitedCounts.map((c) => c.itemKey),
      unlimitedCounts.map((c) => c.occurrence),
      unlimitedCounts.map((c) => c.added),
      sales.map((s) => s.environmentId),
      sales.map((s) => s.itemKey),
      sales.map((s) => s.occurrence),
      sales.map((s) => s.before),
      sales.map((s) => s.after),
      outbox.map((r) => r.topic),
      outbox.map((r) => r.key),
      outbox.map((r) => r.value),
      outbox.map((r) => JSON.stringify(r.headers)),
      expected(balances),
      expected(limitedCounts),
      expected(sales),
    ],
  });
}
