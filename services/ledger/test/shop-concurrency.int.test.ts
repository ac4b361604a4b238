import { PurchaseResultSchema } from '@engage/contracts';
import { randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, adjust } from './support/adjust.ts';
import { expectSpecAnswer } from './support/answers.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import { seededRandom, testSeed } from './support/seeded-random.ts';
import { applyShopSection, item, purchase } from './support/shop.ts';

let ledger: InProcessLedger;
beforeAll(async () => {
  ledger = await startInProcessLedger();
});
afterAll(() => ledger.close());

const PURCHASE_REFUSALS = [
  'marketplace_item.out_of_stock',
  'points.insufficient_balance',
  'marketplace_purchase.idempotency_key_conflict',
  'points.concurrent_update',
];

function expectPurchaseAnswer(answer: Answer, itemKey: string, price: number): void {
  if (answer.status === 200) {
    expect(PurchaseResultSchema.parse(answer.body)).toMatchObject({
      marketplaceItemKey: itemKey,
      priceInPoints: price,
    });
    return;
  }
  expect(answer.status).toBe(409);
  expect(PURCHASE_REFUSALS).toContain(answer.body.code);
}

async function soldOf(environmentId: string, itemKey: string): Promise<number> {
  const { rows } = await ledger.pool.query<{ sold: number }>(
    'SELECT coalesce(sum(sold), 0)::int AS sold FROM item_sales WHERE environment_id = $1 AND item_key = $2',
    [environmentId, itemKey],
  );
  return rows[0]!.sold;
}

async function purchaseIds(environmentId: string): Promise<Set<string>> {
  const { rows } = await ledger.pool.query<{ purchase_id: string }>(
    'SELECT purchase_id FROM purchases WHERE environment_id = $1',
    [environmentId],
  );
  return new Set(rows.map((r) => r.purchase_id));
}

describe('players racing for stock', () => {
  it('sells the last unit to exactly one of 40 players and charges nobody else', async () => {
    const env = randomEnvironment();
    await applyShopSection(ledger.app, env, {
      items: [item('relic', { priceInPoints: 10, stock: 1 })],
      collections: [],
    });
    const players = Array.from({ length: 40 }, (_, i) => `racer-${i}-${crypto.randomUUID()}`);
    await Promise.all(players.map((playerId) => adjust(ledger.app, env, { playerId, amount: 100 })));

    const answers = await Promise.all(
      players.map((playerId) => purchase(ledger.app, env, 'relic', { playerId, idempotencyKey: 'relic' })),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect({ status: answer.status, code: answer.body.code }).toEqual({
        status: 409,
        code: 'marketplace_item.out_of_stock',
      });
    }
    const balances = await Promise.all(players.map((p) => storedBalance(ledger.pool, env.environmentId, p)));
    expect(balances.sort((a, b) => a - b)).toEqual([90, ...Array(39).fill(100)]);
    expect(await soldOf(env.environmentId, 'relic')).toBe(1);
    expect(await purchaseIds(env.environmentId)).toEqual(new Set([winners[0]!.body.purchaseId]));
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });
});

describe('hundreds of parallel debits, purchases and replays', () => {
  it('keeps the balance, the stock and every key sound on one player and one item', async () => {
    const random = seededRandom(testSeed('ledger shop concurrency'));
    const env = randomEnvironment();
    const stock = 60;
    await applyShopSection(ledger.app, env, {
      items: [
        item('gem', {
          priceInPoints: 7,
          stock,
          contents: [{ catalogItemKey: 'gem', value: { type: 'number', value: 1 } }],
        }),
      ],
      collections: [],
    });
    const hot = `hot-${crypto.randomUUID()}`;
    const others = Array.from({ length: 8 }, (_, i) => `other-${i}-${crypto.randomUUID()}`);
    const openings: Answer[] = [];
    for (const playerId of [hot, ...others])
      openings.push(await adjust(ledger.app, env, { playerId, amount: playerId === hot ? 600 : 40 }));

    type Op =
      | { kind: 'purchase'; playerId: string; idempotencyKey?: string }
      | { kind: 'adjustment'; playerId: string; amount: number; idempotencyKey?: string };
    const keyAmounts = new Map<string, number>();
    const ops: Op[] = Array.from({ length: 320 }, () => {
      const draw = random();
      const playerId = random() < 0.75 ? hot : others[Math.floor(random() * others.length)]!;
      // Keys drawn from a shared pool: a key reused by the other operation is a conflict.
      const key = random() < 0.7 ? `k-${Math.floor(random() * 60)}` : undefined;
      if (draw < 0.55) return { kind: 'purchase', playerId, ...(key ? { idempotencyKey: key } : {}) };
      const amount =
        keyAmounts.get(`${playerId}/${key}`) ??
        (random() < 0.7 ? -(1 + Math.floor(random() * 20)) : 1 + Math.floor(random() * 15));
      if (key) keyAmounts.set(`${playerId}/${key}`, amount);
      return { kind: 'adjustment', playerId, amount, ...(key ? { idempotencyKey: key } : {}) };
    });

    const run = (op: Op) =>
      op.kind === 'purchase'
        ? purchase(ledger.app, env, 'gem', {
            playerId: op.playerId,
            ...(op.idempotencyKey ? { idempotencyKey: op.idempotencyKey } : {}),
          })
        : adjust(ledger.app, env, op);
    const answers = await Promise.all(ops.map(run));
    // Every keyed operation once more: each replays its first outcome or is a conflict again.
    const keyed = ops.map((op, i) => ({ op, i })).filter(({ op }) => op.idempotencyKey);
    const replays = await Promise.all(keyed.map(({ op }) => run(op)));

    ops.forEach((op, i) => {
      const answer = answers[i]!;
      if (op.kind === 'purchase') expectPurchaseAnswer(answer, 'gem', 7);
      else expectSpecAnswer(answer, op);
    });
    const notOutcomes = [
      'marketplace_purchase.idempotency_key_conflict',
      'points_adjustment.idempotency_key_conflict',
      'points.concurrent_update',
    ];
    const byKey = new Map<string, Answer[]>();
    const record = (op: Op, answer: Answer) => {
      if (!op.idempotencyKey || notOutcomes.includes(answer.body.code as string)) return;
      const id = `${op.playerId}/${op.idempotencyKey}`;
      byKey.set(id, [...(byKey.get(id) ?? []), answer]);
    };
    for (const [i, op] of ops.entries()) record(op, answers[i]!);
    for (const [j, { op }] of keyed.entries()) record(op, replays[j]!);
    for (const outcomes of byKey.values())
      for (const answer of outcomes) expect(answer.body).toEqual(outcomes[0]!.body);
    expect(replays.some((r) => r.replayed)).toBe(true);

    // Stock: sold exactly once per distinct purchase, never past the stock.
    const bought = new Set(
      [...answers, ...replays]
        .filter((a) => a.status === 200 && 'purchaseId' in a.body)
        .map((a) => a.body.purchaseId as string),
    );
    expect(await purchaseIds(env.environmentId)).toEqual(bought);
    expect(await soldOf(env.environmentId, 'gem')).toBe(bought.size);
    expect(bought.size).toBeLessThanOrEqual(stock);
    if (bought.size < stock)
      expect(answers.some((a) => a.body.code === 'marketplace_item.out_of_stock')).toBe(false);

    // The journal holds exactly one entry per success, nothing for a refusal or a replay.
    const journal = await journalOf(ledger.pool, env.environmentId);
    const succeeded = new Set(
      [...openings, ...answers, ...replays]
        .filter((a) => a.status === 200)
        .map((a) => a.body.transactionId as string),
    );
    expect(new Set(journal.map((e) => e.entryId))).toEqual(succeeded);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });
});
