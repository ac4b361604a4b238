import { MAX_PLAYER_ITEMS, PlayerItemSchema, PlayerItemsQuerySchema } from '@engage/contracts';
import { environmentOf, type HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { listPlayerItems } from '../application/player-items.ts';

/** GET /v1/player-items: what purchases and rewards granted the player, newest first. */
export function playerItemsRoutes(app: HttpApp, deps: { pool: Pool }) {
  app.get(
    '/v1/player-items',
    { schema: { querystring: PlayerItemsQuerySchema, response: { 200: z.array(PlayerItemSchema) } } },
    async (request) =>
      listPlayerItems(
        deps.pool,
        environmentOf(request).environmentId,
        request.query.PlayerId,
        request.query.Take ?? MAX_PLAYER_ITEMS,
      ),
  );
}
