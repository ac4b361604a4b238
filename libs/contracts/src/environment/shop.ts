import { z } from 'zod';
import { ConditionSchema } from '../eligibility.ts';
import { KeySchema, TimestampSchema } from '../http/common.ts';
import { flagRepeats, shownDefinitionFields } from './definition.ts';

/**
 * Section `marketplace` of the environment file (owner: ledger): the shop's items and its curated
 * collections. When the section is present it replaces the whole shop: items and collections absent
 * from it are removed (purchases, stock sold and granted items stay recorded).
 */

/** Largest price of an item, in whole points (the largest amount one adjustment may move). */
export const MAX_PRICE_IN_POINTS = 1_000_000_000_000;
/** Longest recurrence period: one leap year, in hours. */
export const MAX_RECURRENCE_HOURS = 8_784;

/** A typed value of an item's content; the contract shows `number`, the other kinds are ours. */
export const ContentValueSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('number').describe('A number value.'),
    value: z.number().describe('The number.'),
  }),
  z.strictObject({
    type: z.literal('string').describe('A text value.'),
    value: z.string().max(1_000).describe('The text.'),
  }),
  z.strictObject({
    type: z.literal('boolean').describe('A true/false value.'),
    value: z.boolean().describe('The boolean.'),
  }),
]);
export type ContentValue = z.infer<typeof ContentValueSchema>;

export const ContentDefinitionSchema = z
  .strictObject({
    catalogItemKey: KeySchema.describe('The catalog item the purchase grants (see GET /v1/player-items).'),
    value: ContentValueSchema.describe('The typed value granted with it.'),
  })
  .meta({ id: 'ContentDefinition' });

export const MarketplaceItemDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    active: shownDefinitionFields.active.describe(
      'false switches the item off: it is hidden and cannot be bought.',
    ),
    priceInPoints: z.int().min(0).max(MAX_PRICE_IN_POINTS).describe('Price in whole points; 0: free.'),
    contents: z
      .array(ContentDefinitionSchema)
      .max(50)
      .default([])
      .describe('What one purchase grants the player.'),
    availableFromUtc: TimestampSchema.optional().describe('On sale from this instant (inclusive).'),
    availableUntilUtc: TimestampSchema.optional().describe('On sale until this instant (exclusive).'),
    recurrence: z
      .strictObject({
        everyHours: z.int().min(1).max(MAX_RECURRENCE_HOURS).describe('Length of one occurrence, in hours.'),
      })
      .optional()
      .describe(
        'The item recurs: occurrence n runs from availableFromUtc (or 1970-01-01) + (n-1) periods; stock and purchase limits restart with each occurrence.',
      ),
    stock: z
      .int()
      .min(0)
      .optional()
      .describe('Units on sale per occurrence, for all players; absent: unlimited.'),
    purchaseLimit: z
      .int()
      .min(1)
      .optional()
      .describe('Purchases one player may make per occurrence; absent: unlimited.'),
    eligibility: ConditionSchema.optional().describe('Who may buy it (player attributes); absent: everyone.'),
    hideWhenNotEligible: z
      .boolean()
      .default(false)
      .describe(
        'true hides the item from players who are not eligible (404) instead of showing it as not purchasable.',
      ),
    visibility: z
      .enum(['Shop', 'CollectionsOnly'])
      .default('Shop')
      .describe('CollectionsOnly: not listed by the main shop, only in collections and by key.'),
  })
  .refine(
    (item) =>
      !item.availableFromUtc || !item.availableUntilUtc || item.availableFromUtc < item.availableUntilUtc,
    {
      message: 'availableFromUtc must be before availableUntilUtc',
      path: ['availableUntilUtc'],
    },
  )
  .meta({ id: 'MarketplaceItemDefinition' });
export type MarketplaceItemDefinition = z.infer<typeof MarketplaceItemDefinitionSchema>;

export const MarketplaceCollectionDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    items: z.array(KeySchema).max(500).describe('Item keys in the order the collection shows them.'),
  })
  .meta({ id: 'MarketplaceCollectionDefinition' });
export type MarketplaceCollectionDefinition = z.infer<typeof MarketplaceCollectionDefinitionSchema>;

export const MarketplaceSectionSchema = z
  .strictObject({
    items: z
      .array(MarketplaceItemDefinitionSchema)
      .max(2_000)
      .default([])
      .describe('Items in listing order; items absent from the list are removed.'),
    collections: z
      .array(MarketplaceCollectionDefinitionSchema)
      .max(500)
      .default([])
      .describe('Curated collections of items; collections absent from the list are removed.'),
  })
  .superRefine((shop, ctx) => {
    const itemKeys = duplicates(shop.items, 'items', ctx);
    duplicates(shop.collections, 'collections', ctx);
    shop.collections.forEach((collection, c) => {
      collection.items.forEach((key, i) => {
        if (!itemKeys.has(key))
          ctx.addIssue({
            code: 'custom',
            path: ['collections', c, 'items', i],
            message: `collection ${collection.key} names item ${key}, which the section does not define`,
          });
      });
    });
  })
  .describe(
    'The shop: items in listing order and curated collections. Absent items and collections are removed.',
  );
export type MarketplaceSection = z.infer<typeof MarketplaceSectionSchema>;

function duplicates(list: { key: string }[], path: string, ctx: z.RefinementCtx): Set<string> {
  return flagRepeats(
    list,
    (entry) => entry.key,
    ctx,
    (index) => [path, index, 'key'],
    (entry) => `${entry.key} is defined twice`,
  );
}
