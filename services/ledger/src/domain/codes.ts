/** The problem codes the ledger answers with (see docs/ledger.md for the statuses it chose). */
export const LEDGER_CODES = {
  amountZero: 'points_adjustment.amount_zero',
  reasonTooLong: 'points_adjustment.reason_too_long',
  insufficientBalance: 'points.insufficient_balance',
  balanceLimitReached: 'points.balance_limit_reached',
  concurrentUpdate: 'points.concurrent_update',
  adjustmentKeyConflict: 'points_adjustment.idempotency_key_conflict',
  purchaseKeyConflict: 'marketplace_purchase.idempotency_key_conflict',
  itemNotFound: 'marketplace_item.not_found',
  itemNotAvailable: 'marketplace_item.not_available',
  itemInactive: 'marketplace_item.inactive',
  itemNotEligible: 'marketplace_item.not_eligible',
  itemOutOfStock: 'marketplace_item.out_of_stock',
  itemPurchaseLimitReached: 'marketplace_item.purchase_limit_reached',
  itemPriceChanged: 'marketplace_item.price_changed',
  playerNotFound: 'player.not_found',
  collectionNotFound: 'marketplace_collection.not_found',
} as const;
