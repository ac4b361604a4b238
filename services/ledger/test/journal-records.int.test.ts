import { randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from './support/adjust.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { readJournalTopic } from './support/journal-topic.ts';
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
