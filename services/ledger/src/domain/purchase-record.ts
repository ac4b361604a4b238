import type { ShopPurchase } from '@engage/contracts';
import type { PurchaseRow } from './write-decisions.ts';

/** The shop.purchases.v1 record of a committed purchase. */
export function purchaseRecord(purchase: PurchaseRow): ShopPurchase {
  return {
    purchaseId: purchase.purchaseId,
    organizationId: purchase.organizationId,
    environmentId: purchase.environmentId,
    playerId: purchase.playerId,
    marketplaceItemKey: purchase.itemKey,
    occurrenceNumber: purchase.occurrence,
    priceInPoints: purchase.price,
    entryId: purchase.entryId,
    balanceAfter: purchase.balanceAfter,
    idempotencyKey: purchase.idempotencyKey,
    contents: purchase.contents.map((content) => ({
      catalogItemKey: content.catalogItemKey,
      value: content.value.value,
    })),
    purchasedAt: purchase.createdAt.toISOString(),
  };
}
