import { problem } from '@engage/kit';
import { conflictCode, type KeyOperation } from './idempotency.ts';
import { MAX_BALANCE } from './limits.ts';

export const insufficientBalance = (figures: { balance: number; amount: number }) =>
  problem('points.insufficient_balance', undefined, figures);

export const balanceLimitReached = (figures: { balance: number; amount: number }) =>
  problem('points.balance_limit_reached', undefined, { ...figures, maxBalance: MAX_BALANCE });

export const concurrentUpdate = () => problem('points.concurrent_update');

export const idempotencyKeyConflict = (operation: KeyOperation, usedBy: KeyOperation) =>
  problem(
    conflictCode(operation),
    usedBy === operation
      ? `The idempotency key was already used for a different ${operation === 'adjustment' ? 'amount' : 'listing'}.`
      : `The idempotency key was already used by a ${usedBy}.`,
    { usedBy },
  );

export const marketplaceItemNotFound = () => problem('marketplace_item.not_found');

export const marketplaceCollectionNotFound = () => problem('marketplace_collection.not_found');

export const marketplaceItemNotAvailable = () => problem('marketplace_item.not_available');

export const marketplaceItemInactive = () => problem('marketplace_item.inactive');

export const marketplaceItemNotEligible = () => problem('marketplace_item.not_eligible');

export const marketplaceItemOutOfStock = (figures: { stock: number; occurrenceNumber: number }) =>
  problem('marketplace_item.out_of_stock', undefined, figures);

export const purchaseLimitReached = (figures: { purchaseLimit: number; occurrenceNumber: number }) =>
  problem('marketplace_item.purchase_limit_reached', undefined, figures);

export const priceChanged = (figures: { priceInPoints: number; expectedPriceInPoints: number }) =>
  problem('marketplace_item.price_changed', undefined, figures);

export const playerNotFound = () => problem('player.not_found');
