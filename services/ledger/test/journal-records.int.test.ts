import { topics } from '@engage/contracts';
import { randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from './support/adjust.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { readJournalTopic, readTopicRecords } from './support/journal-topic.ts';
import { applyShopSection, item, purchase } from './support/shop.ts';

let ledger: InProcessLedger;
beforeAll(async () => {
  ledger = await startInProcessLedger();
});
afterAll(() => ledger.close());

describe('points.journal.v1: a purchase names its item', () => {
  it('carries marketplaceItemKey on a purchase entry and null on an adjustment, read from the topic', async () => {
    const env = randomEnvironment();
    const player = { id: `player-${crypto.randomUUID()}` };
    expect(
      (await applyShopSection(ledger.app, env, { items: [item('sword')], collections: [] })).status,
    ).toBe(200);
    const credited = await adjust(ledger.app, env, { playerId: player.id, amount: 50, reason: 'welcome' });
    expect(credited.status).toBe(200);
    const bought = await purchase(ledger.app, env, 'sword', { playerId: player.id, idempotencyKey: 'buy-1' });
    expect(bought.status).toBe(200);

    const entryIds = [credited.body.transactionId, bought.body.transactionId] as string[];
    const records = await readJournalTopic(ledger.brokers, ledger.topicPrefix, new Set(entryIds));
    const byEntry = new Map(records.map((r) => [r.entryId, r]));
    expect(byEntry.get(entryIds[0]!)).toMatchObject({ kind: 'adjustment', marketplaceItemKey: null });
    expect(byEntry.get(entryIds[1]!)).toMatchObject({
      kind: 'purchase',
      amount: -10,
      marketplaceItemKey: 'sword',
      sourceRef: bought.body.purchaseId,
    });
  });
});

describe('shop.purchases.v1: every purchase, free ones too', () => {
  it('carries a paid purchase with its journal entry and a free one, which has none, read from the topic', async () => {
    const env = randomEnvironment();
    const player = { id: `player-${crypto.randomUUID()}` };
    const contents = [{ catalogItemKey: 'gem', value: { type: 'number', value: 3 } }];
    const items = [item('sword', { contents }), item('daily-gift', { priceInPoints: 0 })];
    expect((await applyShopSection(ledger.app, env, { items, collections: [] })).status).toBe(200);
    expect(
      (await adjust(ledger.app, env, { playerId: player.id, amount: 50, reason: 'welcome' })).status,
    ).toBe(200);
    const paid = await purchase(ledger.app, env, 'sword', { playerId: player.id, idempotencyKey: 'buy-1' });
    const free = await purchase(ledger.app, env, 'daily-gift', { playerId: player.id });
    expect([paid.status, free.status]).toEqual([200, 200]);
    expect(free.body.transactionId).toBeNull();

    const purchaseIds = [paid.body.purchaseId, free.body.purchaseId] as string[];
    const records = await readTopicRecords(
      ledger.brokers,
      topics.shopPurchases,
      ledger.topicPrefix,
      (r) => r.purchaseId,
      new Set(purchaseIds),
    );
    const byPurchase = new Map(records.map((r) => [r.purchaseId, r]));
    expect(byPurchase.get(purchaseIds[0]!)).toMatchObject({
      playerId: player.id,
      environmentId: env.environmentId,
      marketplaceItemKey: 'sword',
      priceInPoints: 10,
      entryId: paid.body.transactionId,
      balanceAfter: 40,
      idempotencyKey: 'buy-1',
      contents: [{ catalogItemKey: 'gem', value: 3 }],
    });
    expect(byPurchase.get(purchaseIds[1]!)).toMatchObject({
      marketplaceItemKey: 'daily-gift',
      priceInPoints: 0,
      entryId: null,
      balanceAfter: 40,
      idempotencyKey: null,
      contents: [],
    });
  });
});
