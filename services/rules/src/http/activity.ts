import { PlayerIdSchema } from '@engage/contracts';
import { environmentOf, type HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { playerActivity } from '../application/activity.ts';

const ActivityParamsSchema = z.object({ playerId: PlayerIdSchema });

/**
 * Internal read for operators and tests (not forwarded by the gateway): what the rules engine has
 * applied for one player.
 */
export function activityRoutes(app: HttpApp, deps: { pool: Pool }): void {
  app.get(
    '/internal/v1/players/:playerId/activity',
    { schema: { params: ActivityParamsSchema } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return playerActivity(deps.pool, environmentOf(request).environmentId, request.params.playerId);
    },
  );
}
