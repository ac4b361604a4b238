import { problem } from '@engage/kit';
import { LEDGER_CODES } from './codes.ts';
import { conflictCode, type KeyOperation } from './idempotency.ts';
import { MAX_BALANCE } from './limits.ts';

export const insufficientBalance = (figures: { balance: number; amount: number }) =>
  problem(
    409,
    LEDGER_CODES.insufficientBalance,
    'The debit is larger than the balance; a balance never goes below zero. Nothing was written.',
    figures,
  );

export const balanceLimitReached = (figures: { balance: number; amount: number }) =>
  problem(
    409,
    LEDGER_CODES.balanceLimitReached,
    'The credit would take the balance past the largest balance the ledger keeps. Nothing was written.',
    { ...figures, maxBalance: MAX_BALANCE },
  );

export const concurrentUpdate = () =>
  problem(
    409,
    LEDGER_CODES.concurrentUpdate,
    'Other requests changed this balance at the same instant. Nothing was written; send the request again.',
  );

export const idempotencyKeyConflict = (operation: KeyOperation, usedBy: KeyOperation) =>
  problem(
    409,
    conflictCode(operation),
    usedBy === operation
      ? `The idempotency key was already used for a different ${operation === 'adjustment' ? 'amount' : 'listing'}.`
      : `The idempotency key was already used by a ${usedBy}.`,
    { usedBy },
  );

export const marketplaceItemNotFound = () =>
  problem(404, LEDGER_CODES.itemNotFound, 'No marketplace item with that key.');

export const marketplaceCollectionNotFound = () =>
  problem(404, LEDGER_CODES.collectionNotFound, 'No marketplace collection with that key.');

export const marketplaceItemNotAvailable = () =>
  problem(409, LEDGER_CODES.itemNotAvailable, 'The marketplace item is not on sale now.');

export const marketplaceItemInactive = () =>
  problem(409, LEDGER_CODES.itemInactive, 'The marketplace item is switched off.');

export const marketplaceItemNotEligible = () =>
  problem(403, LEDGER_CODES.itemNotEligible, 'This player may not buy the marketplace item.');

export const marketplaceItemOutOfStock = (figures: { stock: number; occurrenceNumber: number }) =>
  problem(
    409,
    LEDGER_CODES.itemOutOfStock,
    'The marketplace item is sold out. Nothing was charged.',
    figures,
  );

export const purchaseLimitReached = (figures: { purchaseLimit: number; occurrenceNumber: number }) =>
  problem(
    409,
    LEDGER_CODES.itemPurchaseLimitReached,
    'The player has bought this item as many times as allowed. Nothing was charged.',
    figures,
  );

export const priceChanged = (figures: { priceInPoints: number; expectedPriceInPoints: number }) =>
  problem(
    409,
    LEDGER_CODES.itemPriceChanged,
    'The price of the marketplace item is not the one expected. Nothing was charged.',
    figures,
  );

export const playerNotFound = () =>
  problem(404, LEDGER_CODES.playerNotFound, 'Nothing has ever been sent for this player.');
