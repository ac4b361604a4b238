import { PlayerIdSchema } from '@engage/contracts';
import { environmentOf, type HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { findActivity } from '../store/activity.ts';

const ActivityParamsSchema = z.object({ playerId: PlayerIdSchema });

/**
 * Internal read for operators and tests (not forwarded by the gateway): what the rules engine has
 * applied for one player. A player it has never seen has applied nothing.
 */
export function activityRoutes(app: HttpApp, deps: { pool: Pool }): void {
  app.get(
    '/internal/v1/players/:playerId/activity',
    { schema: { params: ActivityParamsSchema } },
    async (request, reply) => {
      const { environmentId } = environmentOf(request);
      const { playerId } = request.params;
      const activity = await findActivity(deps.pool, { environmentId, playerId });
      reply.header('cache-control', 'no-store');
      return {
        playerId,
        eventsApplied: activity?.eventsApplied ?? 0,
        lastEventId: activity?.lastEventId ?? null,
        lastOccurredAtUtc: activity?.lastOccurredAt ?? null,
        appliedEventsDigest: activity?.appliedEventsDigest ?? null,
        updatedAtUtc: activity?.updatedAt ?? null,
      };
    },
  );
}
