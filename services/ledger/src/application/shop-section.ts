import type { MarketplaceSection } from '@engage/contracts/environment/shop.ts';
import type { SectionItemChange } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import { diff } from '../domain/shop-diff.ts';
import {
  loadShop,
  lockShop,
  replaceCollections,
  replaceItems,
  type ShopDefinitions,
} from '../store/shop-definitions.ts';

/**
 * Applies the `marketplace` section: the section replaces the shop, so what it does not name is
 * removed. Returns every item's and collection's change; with `dryRun` nothing is written.
 */
export function applyShop(
  pool: Pool,
  environmentId: string,
  section: MarketplaceSection,
  dryRun: boolean,
): Promise<SectionItemChange[]> {
  return withTransaction(pool, async (client) => {
    await lockShop(client, environmentId);
    const current = await loadShop(client, environmentId);
    const changes = [
      ...diff('marketplace.items', current.items, section.items),
      ...diff('marketplace.collections', current.collections, section.collections),
    ];
    if (dryRun) return changes;
    await replaceItems(client, environmentId, section.items);
    await replaceCollections(client, environmentId, section.collections);
    return changes;
  });
}

/** The shop as last applied, for `engage apply`'s read-back. */
export function readShop(pool: Pool, environmentId: string): Promise<ShopDefinitions> {
  return loadShop(pool, environmentId);
}
