import { PlayerIdSchema } from '@engage/contracts';
import { environmentOf, type HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { findPlayerTotals } from '../store/totals.ts';

const TotalsParamsSchema = z.object({ playerId: PlayerIdSchema });

/**
 * Internal read for operators and tests (not forwarded by the gateway): the durable per-event-key
 * record of one player — the count and the exact sum of each numeric property.
 */
export function totalsRoutes(app: HttpApp, deps: { pool: Pool }): void {
  app.get(
    '/internal/v1/players/:playerId/event-totals',
    { schema: { params: TotalsParamsSchema } },
    async (request, reply) => {
      const { environmentId } = environmentOf(request);
      const { playerId } = request.params;
      reply.header('cache-control', 'no-store');
      return { playerId, events: await findPlayerTotals(deps.pool, environmentId, playerId) };
    },
  );
}
