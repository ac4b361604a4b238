import { RecentEventsPageSchema, RecentEventsQuerySchema } from '@engage/contracts/http/recent-events.ts';
import type { HttpApp } from '@engage/kit';
import { z } from 'zod';
import type { RecentEvents } from '../application/recent-events.ts';

const environmentParams = z.object({ environmentId: z.uuid() });

/**
 * The live event debugger (access: ADMIN_ROUTE_RULES): the environment's recent items, newest
 * first. The environment named is checked against the caller's organization before this runs
 * (admin-access.ts), and the record read is that environment's own.
 */
export function recentEventRoutes(scope: HttpApp, deps: { recentEvents: RecentEvents }): void {
  scope.get(
    '/environments/:environmentId/events/recent',
    {
      schema: {
        params: environmentParams,
        querystring: RecentEventsQuerySchema,
        response: { 200: RecentEventsPageSchema },
      },
    },
    async (request) => deps.recentEvents.read(request.params.environmentId, request.query),
  );
}
