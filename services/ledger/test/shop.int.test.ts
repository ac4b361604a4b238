import { MarketplaceItemSchema, PurchaseResultSchema } from '@engage/contracts';
import { injectAsGateway, internalHeaders, randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playerItems } from '../src/store/player-items.ts';
import { adjust, balanceAnswer } from './support/adjust.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import { applyShopSection, item, purchase, shopGet } from './support/shop.ts';

let ledger: InProcessLedger;
beforeAll(async () => {
  ledger = await startInProcessLedger();
});
afterAll(() => ledger.close());

const newPlayer = () => ({ id: `player-${crypto.randomUUID()}` });
const hourFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

describe('the marketplace section of engage apply', () => {
  it('diffs, applies (not on a dry run) and reads back the shop', async () => {
    const env = randomEnvironment();
    const shop = {
      items: [item('sword'), item('shield')],
      collections: [{ key: 'kit', name: 'Kit', items: ['shield', 'sword'] }],
    };
    const dry = await applyShopSection(ledger.app, env, shop, true);
    expect(dry.status).toBe(200);
    expect(dry.body.changes.map((c: { key: string; change: string }) => `${c.key}:${c.change}`)).toEqual([
      'sword:created',
      'shield:created',
      'kit:created',
    ]);
    expect((await shopGet(ledger.app, env, newPlayer(), '/v1/marketplace-items')).body).toEqual([]);

    expect((await applyShopSection(ledger.app, env, shop)).status).toBe(200);
    const next = { items: [item('sword', { priceInPoints: 12 })], collections: [] };
    const applied = await applyShopSection(ledger.app, env, next);
    expect(applied.body.changes).toEqual([
      { section: 'marketplace.items', key: 'sword', change: 'updated', fields: ['priceInPoints'] },
      { section: 'marketplace.items', key: 'shield', change: 'removed', fields: [] },
      { section: 'marketplace.collections', key: 'kit', change: 'removed', fields: [] },
    ]);
    const again = await applyShopSection(ledger.app, env, next);
    expect(again.body.changes).toEqual([
      { section: 'marketplace.items', key: 'sword', change: 'unchanged', fields: [] },
    ]);
    const read = await injectAsGateway(ledger.app, {
      method: 'GET',
      url: `/internal/v1/environments/${env.environmentId}/definition/marketplace`,
      headers: internalHeaders(env),
    });
    expect(read.json().value.items).toMatchObject([{ key: 'sword', priceInPoints: 12, active: true }]);
  });

  it('refuses a collection naming an item the section does not define', async () => {
    const env = randomEnvironment();
    const res = await applyShopSection(ledger.app, env, {
      items: [item('a')],
      collections: [{ key: 'c', name: 'C', items: ['a', 'ghost'] }],
    });
    expect(res.status).toBe(400);
  });
});

describe('what a player sees (endpoints 4, 5 and 6)', () => {
  const env = randomEnvironment();
  beforeAll(async () => {
    const applied = await applyShopSection(ledger.app, env, {
      items: [
        item('gem', {
          name: { defaultLocale: 'en', translations: { en: 'Gem', 'pt-BR': 'Gema' } },
          description: 'Shiny',
          images: { icon: 'gem.png' },
          contents: [{ catalogItemKey: 'gems', value: { type: 'number', value: 100 } }],
          stock: 5,
          purchaseLimit: 2,
        }),
        item('vip', { eligibility: { attribute: 'tier', op: 'eq', value: 'vip' } }),
        item('secret', {
          eligibility: { attribute: 'tier', op: 'eq', value: 'vip' },
          hideWhenNotEligible: true,
        }),
        item('off', { active: false }),
        item('soon', { availableFromUtc: hourFromNow(24) }),
        item('gone', { availableUntilUtc: hourFromNow(-1) }),
        item('bundle', { visibility: 'CollectionsOnly' }),
        item('daily', { recurrence: { everyHours: 24 }, availableFromUtc: '2026-01-01T00:00:00Z', stock: 3 }),
      ],
      collections: [
        { key: 'featured', name: 'Featured', items: ['bundle', 'off', 'gem', 'secret'] },
        { key: 'hidden', name: 'Hidden', active: false, items: ['gem'] },
      ],
    });
    expect(applied.status).toBe(200);
  });

  it('lists visible items on sale now, in the file order, without collection-only ones', async () => {
    const player = newPlayer();
    await adjust(ledger.app, env, { playerId: player.id, amount: 10 });
    const res = await shopGet(ledger.app, env, player, '/v1/marketplace-items?LanguageCode=pt-BR');
    expect(res.status).toBe(200);
    const items = res.body.map((i: unknown) => MarketplaceItemSchema.parse(i));
    expect(items.map((i: { marketplaceItemKey: string }) => i.marketplaceItemKey)).toEqual([
      'gem',
      'vip',
      'daily',
    ]);
    expect(items[0]).toEqual({
      marketplaceItemKey: 'gem',
      name: 'Gema',
      description: 'Shiny',
      images: { icon: 'gem.png' },
      priceInPoints: 10,
      contents: [{ catalogItemKey: 'gems', value: { type: 'number', value: 100 } }],
      status: 'Purchasable',
      isPurchasable: true,
      occurrenceNumber: 1,
      remainingStock: 5,
      remainingPurchases: 2,
      availableUntilUtc: null,
    });
    expect(items[1]).toMatchObject({ status: 'NotEligible', isPurchasable: false });
    expect(items[2].occurrenceNumber).toBeGreaterThan(300);
    expect(items[2].availableUntilUtc).not.toBeNull();

    const vip = await shopGet(
      ledger.app,
      env,
      { ...player, attributes: { tier: 'vip' } },
      '/v1/marketplace-items?Take=3',
    );
    expect(vip.body.map((i: { marketplaceItemKey: string }) => i.marketplaceItemKey)).toEqual([
      'gem',
      'vip',
      'secret',
    ]);
  });

  it('says a player who cannot afford an item cannot buy it, with the item still Purchasable', async () => {
    const res = await shopGet(ledger.app, env, newPlayer(), '/v1/marketplace-items/gem');
    expect(res.body).toMatchObject({ status: 'Purchasable', isPurchasable: false, name: 'Gem' });
  });

  it('answers one item by key, also collection-only and out of its window, and 404 for off, hidden and unknown', async () => {
    const player = newPlayer();
    expect((await shopGet(ledger.app, env, player, '/v1/marketplace-items/bundle')).status).toBe(200);
    expect((await shopGet(ledger.app, env, player, '/v1/marketplace-items/soon')).body.status).toBe(
      'NotYetAvailable',
    );
    expect((await shopGet(ledger.app, env, player, '/v1/marketplace-items/gone')).body.status).toBe(
      'Expired',
    );
    const notFound = await Promise.all(
      ['off', 'secret', 'nothing'].map((key) =>
        shopGet(ledger.app, env, player, `/v1/marketplace-items/${key}`),
      ),
    );
    for (const res of notFound) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('marketplace_item.not_found');
    }
    expect(notFound[0]!.body.detail).toBe(notFound[2]!.body.detail);
  });

  it("returns a collection's visible items in the operator's order, and 404 for an inactive one", async () => {
    const player = newPlayer();
    const res = await shopGet(ledger.app, env, player, '/v1/marketplace-collections/featured');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { marketplaceItemKey: string }) => i.marketplaceItemKey)).toEqual([
      'bundle',
      'gem',
    ]);
    const vip = await shopGet(
      ledger.app,
      env,
      { ...player, attributes: { tier: 'vip' } },
      '/v1/marketplace-collections/featured',
    );
    expect(vip.body.items.map((i: { marketplaceItemKey: string }) => i.marketplaceItemKey)).toEqual([
      'bundle',
      'gem',
      'secret',
    ]);
    for (const key of ['hidden', 'nothing']) {
      const missing = await shopGet(ledger.app, env, player, `/v1/marketplace-collections/${key}`);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('marketplace_collection.not_found');
    }
  });
});

describe('purchases (endpoint 7)', () => {
  const env = randomEnvironment();
  beforeAll(async () => {
    await applyShopSection(ledger.app, env, {
      items: [
        item('potion', {
          priceInPoints: 30,
          contents: [
            { catalogItemKey: 'potion', value: { type: 'number', value: 1 } },
            { catalogItemKey: 'title', value: { type: 'string', value: 'Alchemist' } },
          ],
        }),
        item('free', {
          priceInPoints: 0,
          contents: [{ catalogItemKey: 'hat', value: { type: 'boolean', value: true } }],
        }),
        item('one-left', { stock: 1 }),
        item('once', { purchaseLimit: 1 }),
        item('vip', { eligibility: { attribute: 'tier', op: 'eq', value: 'vip' } }),
        item('secret', {
          eligibility: { attribute: 'tier', op: 'eq', value: 'vip' },
          hideWhenNotEligible: true,
        }),
        item('off', { active: false }),
        item('soon', { availableFromUtc: hourFromNow(24) }),
      ],
      collections: [],
    });
  });

  async function funded(amount = 100) {
    const player = newPlayer();
    expect((await adjust(ledger.app, env, { playerId: player.id, amount })).status).toBe(200);
    return player;
  }

  it('charges the price, grants the contents, journals the charge, and replays without charging again', async () => {
    const player = await funded();
    const first = await purchase(ledger.app, env, 'potion', { playerId: player.id, idempotencyKey: 'buy-1' });
    expect(first.status).toBe(200);
    const result = PurchaseResultSchema.parse(first.body);
    expect(result).toMatchObject({
      playerId: player.id,
      marketplaceItemKey: 'potion',
      priceInPoints: 30,
      balance: 70,
      occurrenceNumber: 1,
    });
    expect(result.contents).toHaveLength(2);

    const replay = await purchase(ledger.app, env, 'potion', {
      playerId: player.id,
      idempotencyKey: 'buy-1',
    });
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await storedBalance(ledger.pool, env.environmentId, player.id)).toBe(70);

    const keyless = await purchase(ledger.app, env, 'potion', { playerId: player.id });
    const keylessAgain = await purchase(ledger.app, env, 'potion', { playerId: player.id });
    expect([keyless.status, keylessAgain.status]).toEqual([200, 200]);
    expect(keylessAgain.body.balance).toBe(10);

    const journal = await journalOf(ledger.pool, env.environmentId, player.id);
    expect(journal.map((e) => [e.kind, e.amount])).toEqual([
      ['adjustment', 100],
      ['purchase', -30],
      ['purchase', -30],
      ['purchase', -30],
    ]);
    expect(journal[1]!.entryId).toBe(result.transactionId);
    const items = await playerItems(ledger.pool, env.environmentId, player.id);
    expect(items.filter((i) => i.sourceRef === result.purchaseId)).toMatchObject([
      {
        catalogItemKey: 'potion',
        value: { type: 'number', value: 1 },
        source: 'purchase',
        entryId: result.transactionId,
      },
      { catalogItemKey: 'title', value: { type: 'string', value: 'Alchemist' }, source: 'purchase' },
    ]);
    expect(items).toHaveLength(6);
    const read = await shopGet(ledger.app, env, player, '/v1/player-items?Take=2');
    expect(read.status).toBe(200);
    expect(read.body).toHaveLength(2);
    expect(read.body[1]).toMatchObject({
      catalogItemKey: 'potion',
      value: { type: 'number', value: 1 },
      source: 'Purchase',
      transactionId: keylessAgain.body.transactionId,
    });
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });

  it('gives a free item without a journal entry', async () => {
    const player = newPlayer();
    const res = await purchase(ledger.app, env, 'free', { playerId: player.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transactionId: null, priceInPoints: 0, balance: 0 });
    expect(await journalOf(ledger.pool, env.environmentId, player.id)).toEqual([]);
  });

  it('shares the key space with adjustments and answers both conflict codes', async () => {
    const player = await funded();
    await adjust(ledger.app, env, { playerId: player.id, amount: 5, idempotencyKey: 'adj' });
    const onAdjustmentKey = await purchase(ledger.app, env, 'potion', {
      playerId: player.id,
      idempotencyKey: 'adj',
    });
    expect(onAdjustmentKey.status).toBe(409);
    expect(onAdjustmentKey.body).toMatchObject({
      code: 'marketplace_purchase.idempotency_key_conflict',
      errors: [{ meta: { usedBy: 'adjustment' } }],
    });

    await purchase(ledger.app, env, 'potion', { playerId: player.id, idempotencyKey: 'buy' });
    const otherListing = await purchase(ledger.app, env, 'free', {
      playerId: player.id,
      idempotencyKey: 'buy',
    });
    expect(otherListing.body.code).toBe('marketplace_purchase.idempotency_key_conflict');
    const adjustmentOnPurchaseKey = await adjust(ledger.app, env, {
      playerId: player.id,
      amount: -30,
      idempotencyKey: 'buy',
    });
    expect(adjustmentOnPurchaseKey.status).toBe(409);
    expect(adjustmentOnPurchaseKey.body.code).toBe('points_adjustment.idempotency_key_conflict');
    expect(await storedBalance(ledger.pool, env.environmentId, player.id)).toBe(75);
  });

  it('answers every refusal of the shop table and charges nothing', async () => {
    const player = await funded(20);
    const code = async (
      key: string,
      extra: { attributes?: Record<string, string>; isNew?: boolean } = {},
      body = {},
    ) => {
      const res = await purchase(ledger.app, env, key, { playerId: player.id, ...body }, extra);
      return `${res.status} ${res.body.code}`;
    };
    expect(await code('nothing')).toBe('404 marketplace_item.not_found');
    expect(await code('secret')).toBe('404 marketplace_item.not_found');
    expect(await code('off')).toBe('409 marketplace_item.inactive');
    expect(await code('soon')).toBe('409 marketplace_item.not_available');
    expect(await code('vip')).toBe('403 marketplace_item.not_eligible');
    expect(await code('vip', { attributes: { tier: 'vip' } })).toBe('200 undefined');
    expect(await code('potion')).toBe('409 points.insufficient_balance');
    expect(await code('once', { isNew: true })).toBe('404 player.not_found');
    expect(await code('once', {}, { expectedPriceInPoints: 9 })).toBe('409 marketplace_item.price_changed');
    await adjust(ledger.app, env, { playerId: player.id, amount: 100 });
    expect(await code('once')).toBe('200 undefined');
    expect(await code('once')).toBe('409 marketplace_item.purchase_limit_reached');
    expect(await code('one-left')).toBe('200 undefined');
    expect(await code('one-left')).toBe('409 marketplace_item.out_of_stock');
    expect(await storedBalance(ledger.pool, env.environmentId, player.id)).toBe(120 - 30);
    const listed = await shopGet(ledger.app, env, player, '/v1/marketplace-items/one-left');
    expect(listed.body).toMatchObject({ status: 'SoldOut', remainingStock: 0, isPurchasable: false });
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });

  it('stores a refused purchase under its key; checks that run before anything do not bind the key', async () => {
    const player = newPlayer();
    const poor = await purchase(ledger.app, env, 'potion', { playerId: player.id, idempotencyKey: 'k' });
    expect(poor.body.code).toBe('points.insufficient_balance');
    await adjust(ledger.app, env, { playerId: player.id, amount: 100 });
    const retried = await purchase(ledger.app, env, 'potion', { playerId: player.id, idempotencyKey: 'k' });
    expect(retried).toEqual({ ...poor, replayed: true });

    const early = await purchase(ledger.app, env, 'vip', { playerId: player.id, idempotencyKey: 'v' });
    expect(early.status).toBe(403);
    const eligible = await purchase(
      ledger.app,
      env,
      'vip',
      { playerId: player.id, idempotencyKey: 'v' },
      { attributes: { tier: 'vip' } },
    );
    expect(eligible.status).toBe(200);
    expect((await balanceAnswer(ledger.app, env, player.id)).body.balance).toBe(90);
  });
});
