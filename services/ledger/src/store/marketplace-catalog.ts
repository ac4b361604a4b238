import type {
  EnvironmentContext,
  MarketplaceCollectionSchema,
  MarketplaceItemSchema,
} from '@engage/contracts';
import type { Pool } from '@engage/postgres';
import type { z } from 'zod';

export type MarketplaceItem = z.infer<typeof MarketplaceItemSchema>;
export type MarketplaceCollection = z.infer<typeof MarketplaceCollectionSchema>;

export interface ShopQuery {
  environment: EnvironmentContext;
  playerId: string;
  languageCode?: string | undefined;
}

/** What the shop routes read: listings as one player sees them, localized. */
export interface MarketplaceCatalog {
  listItems(query: ShopQuery & { take?: number | undefined }): Promise<MarketplaceItem[]>;
  findItem(query: ShopQuery & { marketplaceItemKey: string }): Promise<MarketplaceItem | undefined>;
  findCollection(query: ShopQuery & { collectionKey: string }): Promise<MarketplaceCollection | undefined>;
}

/**
 * The catalog before any listing can be defined: the shop is empty and every key is unknown. The
 * shop issue adds the listing tables and answers these three reads from them.
 */
export function createMarketplaceCatalog(_pool: Pool): MarketplaceCatalog {
  return {
    listItems: async () => [],
    findItem: async () => undefined,
    findCollection: async () => undefined,
  };
}
