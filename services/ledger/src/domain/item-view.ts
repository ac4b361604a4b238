import {
  type AttributeValue,
  isEligible,
  type MarketplaceItemSchema,
  resolveOptionalText,
  resolveText,
} from '@engage/contracts';
import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { z } from 'zod';
import { type Occurrence, occurrenceAt, windowAt } from './item-occurrence.ts';

export type MarketplaceItem = z.infer<typeof MarketplaceItemSchema>;
export type ItemStatus = MarketplaceItem['status'];

/** What the ledger knows about one item for one player at one instant. */
export interface ItemSituation {
  now: Date;
  attributes: Record<string, AttributeValue>;
  /** Units sold in the item's current occurrence. */
  sold: number;
  /** This player's purchases in the item's current occurrence. */
  purchased: number;
  balance: number;
}

/**
 * Whether the player may see the item at all: it is switched on, and not hidden from them. Reads of
 * an item that is not visible answer the same 404 as an unknown key.
 */
export function isVisible(
  item: MarketplaceItemDefinition,
  attributes: Record<string, AttributeValue>,
): boolean {
  return item.active && (!item.hideWhenNotEligible || isEligible(item.eligibility, attributes));
}

/** The item's status for this player; the first reason it cannot be bought wins. */
export function itemStatus(item: MarketplaceItemDefinition, situation: ItemSituation): ItemStatus {
  const window = windowAt(item, situation.now);
  if (window === 'not_started') return 'NotYetAvailable';
  if (window === 'ended') return 'Expired';
  if (!isEligible(item.eligibility, situation.attributes)) return 'NotEligible';
  if (remainingStock(item, situation.sold) === 0) return 'SoldOut';
  if (remainingPurchases(item, situation.purchased) === 0) return 'LimitReached';
  return 'Purchasable';
}

export const remainingStock = (item: MarketplaceItemDefinition, sold: number) =>
  item.stock === undefined ? null : Math.max(0, item.stock - sold);

export const remainingPurchases = (item: MarketplaceItemDefinition, purchased: number) =>
  item.purchaseLimit === undefined ? null : Math.max(0, item.purchaseLimit - purchased);

/** The item as the contract shows it to this player, texts resolved for `languageCode`. */
export function itemView(
  item: MarketplaceItemDefinition,
  situation: ItemSituation,
  languageCode?: string,
): MarketplaceItem {
  const status = itemStatus(item, situation);
  const occurrence: Occurrence = occurrenceAt(item, situation.now);
  return {
    marketplaceItemKey: item.key,
    name: resolveText(item.name, languageCode),
    description: resolveOptionalText(item.description, languageCode),
    images: item.images,
    priceInPoints: item.priceInPoints,
    contents: item.contents,
    status,
    isPurchasable: status === 'Purchasable' && situation.balance >= item.priceInPoints,
    occurrenceNumber: occurrence.number,
    remainingStock: remainingStock(item, situation.sold),
    remainingPurchases: remainingPurchases(item, situation.purchased),
    availableUntilUtc: occurrence.endsAt?.toISOString() ?? null,
  };
}

/** Whether the main shop lists the item now: visible, not collection-only, and on sale now. */
export function isListed(item: MarketplaceItemDefinition, now: Date): boolean {
  return item.visibility === 'Shop' && windowAt(item, now) === 'open';
}
