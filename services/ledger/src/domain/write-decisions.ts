import type { ProblemDocument } from '@engage/contracts';
import type { ContentValue, MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { Problem } from '@engage/kit';
import { judgeRetry, type KeyClaim, type StoredKey, type StoredResponse } from './idempotency.ts';
import { occurrenceAt } from './item-occurrence.ts';
import { MAX_BALANCE } from './limits.ts';
import {
  balanceLimitReached,
  idempotencyKeyConflict,
  insufficientBalance,
  marketplaceItemOutOfStock,
  purchaseLimitReached,
} from './problems.ts';
import { type Buyer, purchaseRefusal } from './purchase-checks.ts';

/** What a write answers: a stored response, and whether it is the replay of an earlier one. */
export interface Outcome extends StoredResponse {
  replayed: boolean;
}

/** An operation's answer, and whether it enqueued a journal record to publish. */
export interface StepResult {
  outcome: Outcome;
  journaled: boolean;
}

interface OperationBase {
  organizationId: string;
  environmentId: string;
  playerId: string;
  idempotencyKey: string | null;
  claim: KeyClaim;
  /** The journal entry's id, should the operation move the balance. */
  entryId: string;
  /** Renders a refusal as the problem document the caller (and every retry) receives. */
  render: (problem: Problem) => ProblemDocument;
}

export interface AdjustmentOp extends OperationBase {
  kind: 'adjustment';
  amount: number;
  reason: string | null;
  createdAt: Date;
}

export interface PurchaseOp extends OperationBase {
  kind: 'purchase';
  itemKey: string;
  buyer: Buyer;
  expectedPriceInPoints: number | undefined;
  purchaseId: string;
  now: Date;
}

export type WriteOp = AdjustmentOp | PurchaseOp;

/**
 * What a batch's decisions start from, read (and locked) in its transaction. Maps are keyed by
 * `rowKey(...)` of the row's primary key.
 */
export interface BatchState {
  keys: Map<string, StoredKey>;
  /** Balances of the players that have a row; a player without one has 0 and no row. */
  balances: Map<string, number>;
  items: Map<string, MarketplaceItemDefinition>;
  /** Purchases made per player, item and occurrence, for items with a purchase limit. */
  purchased: Map<string, number>;
  /** Units sold per item and occurrence, for items with a stock. */
  sold: Map<string, number>;
}

export const rowKey = (...parts: (string | number)[]) => parts.join('\u0000');

export interface JournalEntryRow {
  entryId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  kind: 'adjustment' | 'purchase';
  amount: number;
  balanceAfter: number;
  reason: string | null;
  idempotencyKey: string | null;
  sourceRef: string | null;
  /** A purchase's item (its record's marketplaceItemKey; the journal table keeps it in `reason`). */
  marketplaceItemKey?: string;
  createdAt: Date;
}

export interface PurchaseRow {
  purchaseId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  itemKey: string;
  occurrence: number;
  price: number;
  contents: { catalogItemKey: string; value: ContentValue }[];
  entryId: string | null;
  balanceAfter: number;
  idempotencyKey: string | null;
  createdAt: Date;
}

/** A counter row written as a whole: `before` is what was read and locked (null: no row yet). */
export interface CounterChange {
  before: number | null;
  after: number;
}

/** Everything a batch writes, applied in one statement (see store/write-batch.ts). */
export interface BatchEffects {
  balances: (CounterChange & { environmentId: string; playerId: string })[];
  journal: JournalEntryRow[];
  keys: { environmentId: string; playerId: string; key: string; claim: KeyClaim; response: StoredResponse }[];
  purchases: PurchaseRow[];
  /** Purchases counted per player for items with a purchase limit (read and locked). */
  limitedCounts: (CounterChange & {
    environmentId: string;
    playerId: string;
    itemKey: string;
    occurrence: number;
  })[];
  /** Purchases counted per player for items without a limit: added, never read. */
  unlimitedCounts: {
    environmentId: string;
    playerId: string;
    itemKey: string;
    occurrence: number;
    added: number;
  }[];
  sales: (CounterChange & { environmentId: string; itemKey: string; occurrence: number })[];
}

/**
 * Decides every operation of a batch, in order, as if each ran alone right after the one before: a
 * used key replays its answer or is a conflict (a key claimed earlier in the batch counts as used);
 * an adjustment moves the balance unless it would go below zero or past the largest balance; a
 * purchase passes the definition's checks, then the balance, the purchase limit and the stock, in that
 * order. A refusal of the balance, limit or stock is stored under the key; a conflict or a check of
 * the definition writes nothing. The state is updated as operations apply, so a player's later
 * operations see the earlier ones' balance and counts.
 */
export function decideBatch(
  ops: WriteOp[],
  state: BatchState,
): { results: ({ value: StepResult } | { problem: Problem })[]; effects: BatchEffects } {
  const balances = new Map(state.balances);
  /** Players whose balance an operation of the batch moved (a row to write, even if back to its value). */
  const moved = new Map<string, { environmentId: string; playerId: string }>();
  const keys = new Map(state.keys);
  const purchased = new Map(state.purchased);
  const sold = new Map(state.sold);
  const unlimited = new Map<string, BatchEffects['unlimitedCounts'][number]>();
  /** The identity of each limited count and each stock's sales a purchase of the batch counted. */
  const countedRows = new Map<
    string,
    { environmentId: string; playerId: string; itemKey: string; occurrence: number }
  >();
  const saleRows = new Map<string, { environmentId: string; itemKey: string; occurrence: number }>();
  const effects: BatchEffects = {
    balances: [],
    journal: [],
    keys: [],
    purchases: [],
    limitedCounts: [],
    unlimitedCounts: [],
    sales: [],
  };

  const claimKey = (op: WriteOp, response: StoredResponse) => {
    if (!op.idempotencyKey) return;
    const { environmentId, playerId, idempotencyKey: key, claim } = op;
    effects.keys.push({ environmentId, playerId, key, claim, response });
    // A retry with the key later in this batch replays it (see below).
    keys.set(rowKey(environmentId, playerId, key), { ...claim, response });
  };
  const refuse = (op: WriteOp, problem: Problem) => {
    const response: StoredResponse = { status: problem.status, body: op.render(problem) };
    claimKey(op, response);
    return { value: { outcome: { ...response, replayed: false }, journaled: false } };
  };

  const results = ops.map((op): { value: StepResult } | { problem: Problem } => {
    const player = rowKey(op.environmentId, op.playerId);
    const stored = op.idempotencyKey && keys.get(rowKey(op.environmentId, op.playerId, op.idempotencyKey));
    if (stored) {
      if (judgeRetry(stored, op.claim) === 'conflict')
        return { problem: idempotencyKeyConflict(op.claim.operation, stored.operation) };
      // The stored answer as first sent (json keeps its text), claimed earlier in this batch or before.
      return { value: { outcome: { ...stored.response, replayed: true }, journaled: false } };
    }
    const balance = balances.get(player) ?? 0;

    if (op.kind === 'adjustment') {
      const after = balance + op.amount;
      if (after < 0) return refuse(op, insufficientBalance({ balance, amount: op.amount }));
      if (after > MAX_BALANCE) return refuse(op, balanceLimitReached({ balance, amount: op.amount }));
      balances.set(player, after);
      moved.set(player, { environmentId: op.environmentId, playerId: op.playerId });
      effects.journal.push({
        entryId: op.entryId,
        organizationId: op.organizationId,
        environmentId: op.environmentId,
        playerId: op.playerId,
        kind: 'adjustment',
        amount: op.amount,
        balanceAfter: after,
        reason: op.reason,
        idempotencyKey: op.idempotencyKey,
        sourceRef: null,
        createdAt: op.createdAt,
      });
      const body = { transactionId: op.entryId, amount: op.amount, balance: after };
      claimKey(op, { status: 200, body });
      return { value: { outcome: { status: 200, body, replayed: false }, journaled: true } };
    }

    const item = state.items.get(rowKey(op.environmentId, op.itemKey));
    const refusal = purchaseRefusal(item, op.buyer, op.now, op.expectedPriceInPoints);
    if (refusal || !item) return { problem: refusal! };
    const occurrence = occurrenceAt(item, op.now).number;
    const price = item.priceInPoints;
    const counted = rowKey(op.environmentId, op.playerId, item.key, occurrence);
    const sale = rowKey(op.environmentId, item.key, occurrence);
    if (balance < price) return refuse(op, insufficientBalance({ balance, amount: -price }));
    if (item.purchaseLimit !== undefined && (purchased.get(counted) ?? 0) + 1 > item.purchaseLimit)
      return refuse(
        op,
        purchaseLimitReached({ purchaseLimit: item.purchaseLimit, occurrenceNumber: occurrence }),
      );
    if (item.stock !== undefined && (sold.get(sale) ?? 0) + 1 > item.stock)
      return refuse(op, marketplaceItemOutOfStock({ stock: item.stock, occurrenceNumber: occurrence }));

    const after = balance - price;
    const entryId = price > 0 ? op.entryId : null;
    const countedRow = {
      environmentId: op.environmentId,
      playerId: op.playerId,
      itemKey: item.key,
      occurrence,
    };
    if (price > 0) {
      balances.set(player, after);
      moved.set(player, { environmentId: op.environmentId, playerId: op.playerId });
    }
    if (item.purchaseLimit !== undefined) {
      purchased.set(counted, (purchased.get(counted) ?? 0) + 1);
      countedRows.set(counted, countedRow);
    } else {
      const count = unlimited.get(counted);
      if (count) count.added++;
      else unlimited.set(counted, { ...countedRow, added: 1 });
    }
    if (item.stock !== undefined) {
      sold.set(sale, (sold.get(sale) ?? 0) + 1);
      saleRows.set(sale, { environmentId: op.environmentId, itemKey: item.key, occurrence });
    }
    const reason = `marketplace item ${item.key}`;
    if (entryId)
      effects.journal.push({
        entryId,
        organizationId: op.organizationId,
        environmentId: op.environmentId,
        playerId: op.playerId,
        kind: 'purchase',
        amount: -price,
        balanceAfter: after,
        reason,
        idempotencyKey: op.idempotencyKey,
        sourceRef: op.purchaseId,
        marketplaceItemKey: item.key,
        createdAt: op.now,
      });
    effects.purchases.push({
      purchaseId: op.purchaseId,
      organizationId: op.organizationId,
      environmentId: op.environmentId,
      playerId: op.playerId,
      itemKey: item.key,
      occurrence,
      price,
      contents: item.contents,
      entryId,
      balanceAfter: after,
      idempotencyKey: op.idempotencyKey,
      createdAt: op.now,
    });
    const body = {
      purchaseId: op.purchaseId,
      transactionId: entryId,
      playerId: op.playerId,
      marketplaceItemKey: item.key,
      occurrenceNumber: occurrence,
      priceInPoints: price,
      contents: item.contents,
      purchasedAtUtc: op.now.toISOString(),
      balance: after,
    };
    claimKey(op, { status: 200, body });
    return { value: { outcome: { status: 200, body, replayed: false }, journaled: entryId !== null } };
  });

  effects.balances = [...moved].map(([key, row]) => ({
    ...row,
    before: state.balances.get(key) ?? null,
    after: balances.get(key)!,
  }));
  effects.limitedCounts = changes(state.purchased, purchased, countedRows);
  effects.sales = changes(state.sold, sold, saleRows);
  effects.unlimitedCounts = [...unlimited.values()];
  return { results, effects };
}

/**
 * The counters the batch moved, each with the value read (null: no row) and the new one; `rows` holds
 * the identity of every counter the batch counted.
 */
function changes<T>(
  before: Map<string, number>,
  after: Map<string, number>,
  rows: Map<string, T>,
): (T & CounterChange)[] {
  const changed: (T & CounterChange)[] = [];
  for (const [key, value] of after) {
    const was = before.get(key);
    if (was !== value) changed.push({ ...rows.get(key)!, before: was ?? null, after: value });
  }
  return changed;
}
