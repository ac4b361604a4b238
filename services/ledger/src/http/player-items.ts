import { MAX_PLAYER_ITEMS, PlayerItemSchema, PlayerItemsQuerySchema } from '@engage/contracts';
import { environmentOf, type HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { playerItems } from '../store/player-items.ts';

/** GET /v1/player-items: what purchases and rewards granted the player, newest first. */
export function playerItemsRoutes(app: HttpApp, deps: { pool: Pool }) {
  app.get(
    '/v1/player-items',
    { schema: { querystring: PlayerItemsQuerySchema, response: { 200: z.array(PlayerItemSchema) } } },
    async (request) => {
      const { environmentId } = environmentOf(request);
      const items = await playerItems(deps.pool, environmentId, request.query.PlayerId, {
        newestFirst: true,
        limit: request.query.Take ?? MAX_PLAYER_ITEMS,
      });
      return items.map((item) => ({
        catalogItemKey: item.catalogItemKey,
        value: item.value,
        source: item.source === 'purchase' ? ('Purchase' as const) : ('Reward' as const),
        sourceRef: item.sourceRef,
        transactionId: item.entryId,
        grantedAtUtc: item.grantedAt.toISOString(),
      }));
    },
  );
}
