import type { AttributeValue } from '@engage/contracts';
import { isEligible } from '@engage/contracts';
import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { Problem } from '@engage/kit';
import { windowAt } from './item-occurrence.ts';
import { isVisible } from './item-view.ts';
import {
  marketplaceItemInactive,
  marketplaceItemNotAvailable,
  marketplaceItemNotEligible,
  marketplaceItemNotFound,
  playerNotFound,
  priceChanged,
} from './problems.ts';

export interface Buyer {
  attributes: Record<string, AttributeValue>;
  /** The gateway saw the player for the first time with this request. */
  isNew: boolean;
}

/**
 * The refusals decided by the definition and the player alone, before anything is written, in this
 * order: unknown or hidden (404, as the reads answer), switched off, not on sale now, a price other
 * than the one expected, a player never seen before, not eligible. Undefined: the purchase may run.
 */
export function purchaseRefusal(
  item: MarketplaceItemDefinition | undefined,
  buyer: Buyer,
  now: Date,
  expectedPriceInPoints: number | undefined,
): Problem | undefined {
  if (!item) return marketplaceItemNotFound();
  if (!item.active) return marketplaceItemInactive();
  if (!isVisible(item, buyer.attributes)) return marketplaceItemNotFound();
  if (windowAt(item, now) !== 'open') return marketplaceItemNotAvailable();
  if (expectedPriceInPoints !== undefined && expectedPriceInPoints !== item.priceInPoints)
    return priceChanged({ priceInPoints: item.priceInPoints, expectedPriceInPoints });
  if (buyer.isNew) return playerNotFound();
  if (!isEligible(item.eligibility, buyer.attributes)) return marketplaceItemNotEligible();
  return undefined;
}
