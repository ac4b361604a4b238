import {
  type MarketplaceItemDefinition,
  MarketplaceItemDefinitionSchema,
} from '@engage/contracts/environment/shop.ts';
import type { Problem } from '@engage/kit';
import { describe, expect, it } from 'vitest';
import { adjustmentClaim, purchaseClaim } from '../src/domain/idempotency.ts';
import {
  type AdjustmentOp,
  type BatchState,
  decideBatch,
  type PurchaseOp,
  rowKey,
} from '../src/domain/write-decisions.ts';

const env = '00000000-0000-4000-8000-000000000001';
const org = '00000000-0000-4000-8000-000000000002';
const now = new Date('2026-06-15T12:00:00Z');
const render = (problem: Problem) => ({ status: problem.status, code: problem.errors[0]!.code }) as never;
let ids = 0;

const adjust = (playerId: string, amount: number, key: string | null = null): AdjustmentOp => ({
  kind: 'adjustment',
  organizationId: org,
  environmentId: env,
  playerId,
  idempotencyKey: key,
  claim: adjustmentClaim(amount),
  entryId: `entry-${++ids}`,
  render,
  amount,
  reason: null,
  createdAt: now,
});

const buy = (playerId: string, itemKey: string, key: string | null = null): PurchaseOp => ({
  kind: 'purchase',
  organizationId: org,
  environmentId: env,
  playerId,
  idempotencyKey: key,
  claim: purchaseClaim(itemKey),
  entryId: `entry-${++ids}`,
  render,
  itemKey,
  buyer: { attributes: {}, isNew: false },
  expectedPriceInPoints: undefined,
  purchaseId: `purchase-${++ids}`,
  now,
});

const item = (fields: Record<string, unknown>): MarketplaceItemDefinition =>
  MarketplaceItemDefinitionSchema.parse({ key: 'gem', name: 'Gem', priceInPoints: 5, ...fields });

const state = (fields: Partial<BatchState> = {}): BatchState => ({
  keys: new Map(),
  balances: new Map(),
  items: new Map(),
  purchased: new Map(),
  sold: new Map(),
  ...fields,
});

type Result = ReturnType<typeof decideBatch>['results'][number];
const statusOf = (result: Result) =>
  'value' in result ? result.value.outcome.status : result.problem.status;
const bodyOf = (result: Result | undefined) =>
  result && 'value' in result ? (result.value.outcome.body as Record<string, unknown>) : undefined;

describe('deciding a batch', () => {
  it("applies a player's operations in order, each seeing the balance the one before left", () => {
    const { results, effects } = decideBatch(
      [adjust('p1', 10), adjust('p1', -4), adjust('p1', -7), adjust('p1', -6)],
      state(),
    );
    expect(results.map(statusOf)).toEqual([200, 200, 409, 200]);
    expect(effects.journal.map((e) => e.balanceAfter)).toEqual([10, 6, 0]);
    expect(effects.balances).toEqual([{ environmentId: env, playerId: 'p1', before: null, after: 0 }]);
  });

  it('replays a key claimed earlier in the batch with the answer as first sent, and refuses another amount', () => {
    const { results, effects } = decideBatch(
      [adjust('p1', 10, 'k'), adjust('p1', 10, 'k'), adjust('p1', 11, 'k')],
      state({ balances: new Map([[rowKey(env, 'p1'), 5]]) }),
    );
    const [first, replay, conflict] = results;
    expect(first).toMatchObject({ value: { outcome: { status: 200, replayed: false } } });
    expect(replay).toMatchObject({ value: { outcome: { status: 200, replayed: true } } });
    expect(JSON.stringify(bodyOf(replay))).toBe(JSON.stringify(bodyOf(first)));
    expect(conflict).toMatchObject({ problem: { status: 409 } });
    expect(effects.keys).toHaveLength(1);
    expect(effects.balances).toEqual([{ environmentId: env, playerId: 'p1', before: 5, after: 15 }]);
  });

  it('refuses a purchase on the balance, then the limit, then the stock, and stores each refusal under its key', () => {
    const limited = item({ key: 'gem', purchaseLimit: 1, stock: 1 });
    const items = new Map([[rowKey(env, 'gem'), limited]]);
    const { results, effects } = decideBatch(
      [buy('poor', 'gem', 'a'), buy('rich', 'gem', 'b'), buy('rich', 'gem', 'c'), buy('other', 'gem', 'd')],
      state({
        items,
        balances: new Map([
          [rowKey(env, 'rich'), 100],
          [rowKey(env, 'other'), 100],
        ]),
      }),
    );
    const codes = results.map((r) => bodyOf(r)?.code);
    expect(codes).toEqual([
      'points.insufficient_balance',
      undefined,
      'marketplace_item.purchase_limit_reached',
      'marketplace_item.out_of_stock',
    ]);
    expect(effects.keys.map((k) => k.response.status)).toEqual([409, 200, 409, 409]);
    expect(effects.sales).toEqual([
      { environmentId: env, itemKey: 'gem', occurrence: 1, before: null, after: 1 },
    ]);
    expect(effects.limitedCounts).toEqual([
      { environmentId: env, playerId: 'rich', itemKey: 'gem', occurrence: 1, before: null, after: 1 },
    ]);
    expect(effects.balances).toEqual([{ environmentId: env, playerId: 'rich', before: 100, after: 95 }]);
  });

  it('writes nothing for an unknown item or a key conflict, and counts unlimited purchases by adding', () => {
    const coin = item({ key: 'coin', priceInPoints: 0 });
    const { results, effects } = decideBatch(
      [
        buy('p1', 'nothing', 'k1'),
        buy('p1', 'coin'),
        buy('p1', 'coin'),
        adjust('p1', 3, 'k2'),
        buy('p1', 'coin', 'k2'),
      ],
      state({ items: new Map([[rowKey(env, 'coin'), coin]]) }),
    );
    expect(results.map(statusOf)).toEqual([404, 200, 200, 200, 409]);
    expect(effects.keys.map((k) => k.key)).toEqual(['k2']);
    expect(effects.journal).toHaveLength(1);
    expect(effects.purchases.map((p) => p.balanceAfter)).toEqual([0, 0]);
    expect(effects.unlimitedCounts).toEqual([
      { environmentId: env, playerId: 'p1', itemKey: 'coin', occurrence: 1, added: 2 },
    ]);
  });
});
