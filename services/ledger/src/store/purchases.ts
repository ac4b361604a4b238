import type { ContentValue } from '@engage/contracts/environment/shop.ts';
import type { PoolClient } from '@engage/postgres';

export interface NewPurchase {
  purchaseId: string;
  environmentId: string;
  playerId: string;
  itemKey: string;
  occurrence: number;
  price: number;
  contents: { catalogItemKey: string; value: ContentValue }[];
  entryId: string | null;
  balanceAfter: number;
  idempotencyKey: string | null;
}

/** Records a purchase (append-only) and returns when it was made. */
export async function recordPurchase(client: PoolClient, purchase: NewPurchase): Promise<Date> {
  const { rows } = await client.query<{ created_at: Date }>(
    `INSERT INTO purchases (purchase_id, environment_id, player_id, item_key, occurrence, price, contents,
                            entry_id, balance_after, idempotency_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING created_at`,
    [
      purchase.purchaseId,
      purchase.environmentId,
      purchase.playerId,
      purchase.itemKey,
      purchase.occurrence,
      purchase.price,
      JSON.stringify(purchase.contents),
      purchase.entryId,
      purchase.balanceAfter,
      purchase.idempotencyKey,
    ],
  );
  return rows[0]!.created_at;
}
