import { RecentEventsQuerySchema } from '@engage/contracts/http/recent-events.ts';
import { type HttpApp, type Logger, notFound } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { askOwner } from '../application/ask-owner.ts';
import { findEnvironmentContext } from '../store/control-plane.ts';
import type { Upstreams } from '../upstreams/upstreams.ts';

const environmentParams = z.object({ environmentId: z.uuid() });

/**
 * The live event debugger (access: ADMIN_ROUTE_RULES): the environment's recent items, newest
 * first, from the record the gateway keeps as it accepts them. The environment named is checked
 * against the caller's organization before this runs (admin-access.ts).
 */
export function recentEventRoutes(
  scope: HttpApp,
  deps: { pool: Pool; upstreams: Upstreams; log: Logger },
): void {
  scope.get(
    '/environments/:environmentId/events/recent',
    { schema: { params: environmentParams, querystring: RecentEventsQuerySchema } },
    async (request, reply) => {
      const environment = await findEnvironmentContext(deps.pool, request.params.environmentId);
      if (!environment) throw notFound('environment.not_found', 'No environment with that id.');
      // The query goes on as sent: the gateway checks it again against the same schema.
      const url = request.raw.url ?? request.url;
      const search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
      const path = `/internal/v1/events/recent${search}`;
      const answer = await askOwner(deps, 'gateway', environment, undefined, { method: 'GET', path });
      return reply.type(answer.contentType).send(answer.body);
    },
  );
}
