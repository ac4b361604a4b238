import type { RewardGrant } from '@engage/contracts';
import {
  type MarketplaceItemDefinition,
  MarketplaceItemDefinitionSchema,
  MarketplaceSectionSchema,
} from '@engage/contracts/environment/shop.ts';
import { describe, expect, it } from 'vitest';
import { occurrenceAt, windowAt } from '../src/domain/item-occurrence.ts';
import { type ItemSituation, isListed, isVisible, itemStatus, itemView } from '../src/domain/item-view.ts';
import { purchaseRefusal } from '../src/domain/purchase-checks.ts';
import { grantItems, grantPoints, grantReason } from '../src/domain/reward-grant.ts';

const define = (fields: Record<string, unknown>): MarketplaceItemDefinition =>
  MarketplaceItemDefinitionSchema.parse({ key: 'sword', name: 'Sword', priceInPoints: 50, ...fields });

const now = new Date('2026-06-15T12:00:00Z');
const situation = (fields: Partial<ItemSituation> = {}): ItemSituation => ({
  now,
  attributes: {},
  sold: 0,
  purchased: 0,
  balance: 100,
  ...fields,
});

describe('occurrences', () => {
  it('gives an item without recurrence one occurrence over its window', () => {
    const item = define({ availableUntilUtc: '2026-07-01T00:00:00Z' });
    expect(occurrenceAt(item, now)).toEqual({
      number: 1,
      startsAt: null,
      endsAt: new Date('2026-07-01T00:00:00Z'),
    });
  });

  it('numbers the periods of a recurring item from its start, the last one clipped to the window', () => {
    const item = define({
      recurrence: { everyHours: 24 },
      availableFromUtc: '2026-06-01T00:00:00Z',
      availableUntilUtc: '2026-06-16T06:00:00Z',
    });
    expect(occurrenceAt(item, now)).toEqual({
      number: 15,
      startsAt: new Date('2026-06-15T00:00:00Z'),
      endsAt: new Date('2026-06-16T00:00:00Z'),
    });
    expect(occurrenceAt(item, new Date('2026-06-16T01:00:00Z')).endsAt).toEqual(
      new Date('2026-06-16T06:00:00Z'),
    );
    expect(occurrenceAt(item, new Date('2026-05-01T00:00:00Z')).number).toBe(1);
  });

  it('tells whether the window is open', () => {
    const item = define({
      availableFromUtc: '2026-06-15T12:00:00Z',
      availableUntilUtc: '2026-06-15T13:00:00Z',
    });
    expect(windowAt(item, new Date('2026-06-15T11:59:59Z'))).toBe('not_started');
    expect(windowAt(item, now)).toBe('open');
    expect(windowAt(item, new Date('2026-06-15T13:00:00Z'))).toBe('ended');
  });
});

describe('an item as one player sees it', () => {
  it('puts the first reason it cannot be bought in its status', () => {
    const item = define({
      stock: 3,
      purchaseLimit: 1,
      eligibility: { attribute: 'level', op: 'gte', value: 10 },
    });
    const eligible = { attributes: { level: 12 } };
    expect(itemStatus(item, situation(eligible))).toBe('Purchasable');
    expect(itemStatus(item, situation())).toBe('NotEligible');
    expect(itemStatus(item, situation({ ...eligible, sold: 3 }))).toBe('SoldOut');
    expect(itemStatus(item, situation({ ...eligible, purchased: 1 }))).toBe('LimitReached');
    expect(itemStatus(define({ availableFromUtc: '2027-01-01T00:00:00Z' }), situation())).toBe(
      'NotYetAvailable',
    );
    expect(itemStatus(define({ availableUntilUtc: '2026-01-01T00:00:00Z' }), situation())).toBe('Expired');
  });

  it('reports what is left and whether this player can afford it', () => {
    const view = itemView(
      define({ stock: 10, purchaseLimit: 3 }),
      situation({ sold: 4, purchased: 1, balance: 49 }),
    );
    expect(view).toMatchObject({
      status: 'Purchasable',
      isPurchasable: false,
      remainingStock: 6,
      remainingPurchases: 2,
    });
    expect(itemView(define({}), situation())).toMatchObject({
      isPurchasable: true,
      remainingStock: null,
      remainingPurchases: null,
    });
  });

  it('resolves localized texts with the per-text default locale', () => {
    const item = define({
      name: { defaultLocale: 'fr', translations: { fr: 'Épée', en: 'Sword' } },
      description: { defaultLocale: 'en', translations: { en: 'Sharp', de: 'Scharf' } },
    });
    expect(itemView(item, situation(), 'de-AT')).toMatchObject({ name: 'Épée', description: 'Scharf' });
    expect(itemView(item, situation())).toMatchObject({ name: 'Épée', description: 'Sharp' });
  });

  it('hides switched-off items, and ineligible ones only when asked to', () => {
    const condition = { attribute: 'vip', op: 'eq', value: true };
    expect(isVisible(define({ active: false }), {})).toBe(false);
    expect(isVisible(define({ eligibility: condition }), {})).toBe(true);
    expect(isVisible(define({ eligibility: condition, hideWhenNotEligible: true }), {})).toBe(false);
    expect(isVisible(define({ eligibility: condition, hideWhenNotEligible: true }), { vip: true })).toBe(
      true,
    );
    expect(isListed(define({ visibility: 'CollectionsOnly' }), now)).toBe(false);
  });
});

describe('purchase refusals decided before anything is written', () => {
  const buyer = { attributes: {}, isNew: false };
  const code = (item: MarketplaceItemDefinition | undefined, b = buyer, expected?: number) =>
    purchaseRefusal(item, b, now, expected)?.errors[0]?.code;

  it('answers in the documented order', () => {
    expect(code(undefined)).toBe('marketplace_item.not_found');
    expect(code(define({ active: false, availableUntilUtc: '2026-01-01T00:00:00Z' }))).toBe(
      'marketplace_item.inactive',
    );
    expect(code(define({ eligibility: { attribute: 'vip', op: 'exists' }, hideWhenNotEligible: true }))).toBe(
      'marketplace_item.not_found',
    );
    expect(code(define({ availableUntilUtc: '2026-01-01T00:00:00Z' }), { attributes: {}, isNew: true })).toBe(
      'marketplace_item.not_available',
    );
    expect(code(define({}), buyer, 49)).toBe('marketplace_item.price_changed');
    expect(
      code(define({ eligibility: { attribute: 'vip', op: 'exists' } }), { attributes: {}, isNew: true }),
    ).toBe('player.not_found');
    expect(code(define({ eligibility: { attribute: 'vip', op: 'exists' } }))).toBe(
      'marketplace_item.not_eligible',
    );
    expect(code(define({}), buyer, 50)).toBeUndefined();
  });
});

describe('the marketplace section', () => {
  it('refuses duplicate keys, unknown collection items and an empty window', () => {
    const result = MarketplaceSectionSchema.safeParse({
      items: [
        { key: 'a', name: 'A', priceInPoints: 1 },
        {
          key: 'a',
          name: 'A',
          priceInPoints: 1,
          availableFromUtc: '2026-02-01T00:00:00Z',
          availableUntilUtc: '2026-01-01T00:00:00Z',
        },
      ],
      collections: [{ key: 'c', name: 'C', items: ['a', 'b'] }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(
      expect.arrayContaining(['items.1.availableUntilUtc', 'items.1.key', 'collections.0.items.1']),
    );
  });
});

describe('reward grants', () => {
  const grant: RewardGrant = {
    grantId: '00000000-0000-4000-8000-000000000001',
    organizationId: '00000000-0000-4000-8000-000000000002',
    environmentId: '00000000-0000-4000-8000-000000000003',
    playerId: 'p1',
    source: 'StreakMilestone',
    sourceKey: 'daily-login',
    occurrenceNumber: 2,
    milestoneThreshold: 7,
    rewards: [
      { kind: 'Points', pointsAmount: 40, catalogItemKey: null, catalogItemValue: null },
      { kind: 'Points', pointsAmount: 2, catalogItemKey: null, catalogItemValue: null },
      { kind: 'CatalogItem', pointsAmount: null, catalogItemKey: 'chest', catalogItemValue: 3 },
      { kind: 'CatalogItem', pointsAmount: null, catalogItemKey: 'badge', catalogItemValue: null },
    ],
    grantedAt: '2026-06-15T12:00:00.000Z',
  };

  it('sums the points, types the catalog items and says what earned them', () => {
    expect(grantPoints(grant)).toBe(42);
    expect(grantItems(grant)).toEqual([
      { catalogItemKey: 'chest', value: { type: 'number', value: 3 } },
      { catalogItemKey: 'badge', value: null },
    ]);
    expect(grantReason(grant)).toBe('StreakMilestone daily-login occurrence 2 milestone 7');
  });
});
