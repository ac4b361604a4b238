import {
  type AttributeValue,
  type EnvironmentContext,
  type MarketplaceCollectionSchema,
  resolveOptionalText,
  resolveText,
} from '@engage/contracts';
import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { Pool } from '@engage/postgres';
import type { z } from 'zod';
import { occurrenceAt } from '../domain/item-occurrence.ts';
import { isListed, isVisible, itemView, type MarketplaceItem } from '../domain/item-view.ts';
import { readBalance } from '../store/balances.ts';
import { countOf, purchasesMade, unitsSold } from '../store/shop-counters.ts';
import { loadCollection, loadItem, loadShop } from '../store/shop-definitions.ts';

export type { MarketplaceItem };
export type MarketplaceCollection = z.infer<typeof MarketplaceCollectionSchema>;

export interface ShopQuery {
  environment: EnvironmentContext;
  playerId: string;
  attributes: Record<string, AttributeValue>;
  languageCode?: string | undefined;
}

/** What the shop routes read: listings as one player sees them, localized. */
export interface MarketplaceCatalog {
  listItems(query: ShopQuery & { take?: number | undefined }): Promise<MarketplaceItem[]>;
  findItem(query: ShopQuery & { marketplaceItemKey: string }): Promise<MarketplaceItem | undefined>;
  findCollection(query: ShopQuery & { collectionKey: string }): Promise<MarketplaceCollection | undefined>;
}

/** The shop read from the definitions applied with `engage apply` and the live counters. */
export function createMarketplaceCatalog(
  pool: Pool,
  clock: () => Date = () => new Date(),
): MarketplaceCatalog {
  /** The views of `items` for one player at one instant (one query each for stock, purchases, balance). */
  async function views(query: ShopQuery, items: MarketplaceItemDefinition[]): Promise<MarketplaceItem[]> {
    if (items.length === 0) return [];
    const now = clock();
    const { environmentId } = query.environment;
    const refs = items.map((item) => ({ itemKey: item.key, occurrence: occurrenceAt(item, now).number }));
    const [sold, purchased, balance] = await Promise.all([
      unitsSold(pool, environmentId, refs),
      purchasesMade(pool, environmentId, query.playerId, refs),
      readBalance(pool, { environmentId, playerId: query.playerId }),
    ]);
    return items.map((item, i) =>
      itemView(
        item,
        {
          now,
          attributes: query.attributes,
          sold: countOf(sold, refs[i]!),
          purchased: countOf(purchased, refs[i]!),
          balance: balance?.balance ?? 0,
        },
        query.languageCode,
      ),
    );
  }

  return {
    async listItems(query) {
      const { items } = await loadShop(pool, query.environment.environmentId);
      const now = clock();
      const listed = items.filter((item) => isVisible(item, query.attributes) && isListed(item, now));
      return views(query, query.take === undefined ? listed : listed.slice(0, query.take));
    },

    async findItem(query) {
      const item = await loadItem(pool, query.environment.environmentId, query.marketplaceItemKey);
      if (!item || !isVisible(item, query.attributes)) return undefined;
      return (await views(query, [item]))[0];
    },

    async findCollection(query) {
      const { environmentId } = query.environment;
      const collection = await loadCollection(pool, environmentId, query.collectionKey);
      if (!collection?.active) return undefined;
      const { items } = await loadShop(pool, environmentId);
      const byKey = new Map(items.map((item) => [item.key, item]));
      const shown = collection.items
        .map((key) => byKey.get(key))
        .filter((item): item is MarketplaceItemDefinition => !!item && isVisible(item, query.attributes));
      return {
        key: collection.key,
        name: resolveText(collection.name, query.languageCode),
        description: resolveOptionalText(collection.description, query.languageCode),
        images: collection.images,
        items: await views(query, shown),
      };
    },
  };
}
