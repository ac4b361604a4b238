import {
  LocalizedPlayerQuerySchema,
  MarketplaceCollectionSchema,
  MarketplaceItemSchema,
  MarketplaceItemsQuerySchema,
  PurchaseRequestSchema,
} from '@engage/contracts';
import { environmentOf, type HttpApp, playerOf } from '@engage/kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { MarketplaceCatalog } from '../application/marketplace-catalog.ts';
import { type PurchaseDeps, purchaseItem } from '../application/purchase-item.ts';
import { marketplaceCollectionNotFound, marketplaceItemNotFound } from '../domain/problems.ts';
import { problemRenderer, sendOutcome } from './replies.ts';

const ItemParamsSchema = z.object({ marketplaceItemKey: z.string().min(1) });
const CollectionParamsSchema = z.object({ collectionKey: z.string().min(1) });

/** The player's attributes as the gateway forwarded them (none when the header is absent). */
function attributesOf(request: FastifyRequest) {
  return playerOf(request).attributes;
}

/** Endpoints 4 to 7: the shop as one player sees it, and purchases. */
export function marketplaceRoutes(app: HttpApp, deps: PurchaseDeps & { marketplace: MarketplaceCatalog }) {
  const { marketplace } = deps;

  app.get(
    '/v1/marketplace-items',
    {
      schema: { querystring: MarketplaceItemsQuerySchema, response: { 200: z.array(MarketplaceItemSchema) } },
    },
    async (request) =>
      marketplace.listItems({
        environment: environmentOf(request),
        playerId: request.query.PlayerId,
        attributes: attributesOf(request),
        languageCode: request.query.LanguageCode,
        take: request.query.Take,
      }),
  );

  app.get(
    '/v1/marketplace-items/:marketplaceItemKey',
    {
      schema: {
        params: ItemParamsSchema,
        querystring: LocalizedPlayerQuerySchema,
        response: { 200: MarketplaceItemSchema },
      },
    },
    async (request) => {
      const item = await marketplace.findItem({
        environment: environmentOf(request),
        playerId: request.query.PlayerId,
        attributes: attributesOf(request),
        languageCode: request.query.LanguageCode,
        marketplaceItemKey: request.params.marketplaceItemKey,
      });
      if (!item) throw marketplaceItemNotFound();
      return item;
    },
  );

  app.get(
    '/v1/marketplace-collections/:collectionKey',
    {
      schema: {
        params: CollectionParamsSchema,
        querystring: LocalizedPlayerQuerySchema,
        response: { 200: MarketplaceCollectionSchema },
      },
    },
    async (request) => {
      const collection = await marketplace.findCollection({
        environment: environmentOf(request),
        playerId: request.query.PlayerId,
        attributes: attributesOf(request),
        languageCode: request.query.LanguageCode,
        collectionKey: request.params.collectionKey,
      });
      if (!collection) throw marketplaceCollectionNotFound();
      return collection;
    },
  );

  app.post(
    '/v1/marketplace-items/:marketplaceItemKey/purchases',
    { schema: { params: ItemParamsSchema, body: PurchaseRequestSchema } },
    async (request, reply) => {
      const player = playerOf(request);
      const outcome = await purchaseItem(deps, {
        environment: environmentOf(request),
        itemKey: request.params.marketplaceItemKey,
        buyer: { attributes: player.attributes, isNew: player.isNew },
        request: request.body,
        render: problemRenderer(request),
      });
      return sendOutcome(reply, outcome);
    },
  );
}
