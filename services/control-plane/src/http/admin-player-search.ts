import { PlayerSearchQuerySchema } from '@engage/contracts/http/player-search.ts';
import { type HttpApp, type Logger, notFound } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { askOwner } from '../application/ask-owner.ts';
import { findEnvironmentContext } from '../store/control-plane.ts';
import type { Upstreams } from '../upstreams/upstreams.ts';

const environmentParams = z.object({ environmentId: z.uuid() });

/**
 * Operators' search of an environment's players by id prefix and attribute value (access:
 * ADMIN_ROUTE_RULES), answered by the gateway, which keeps the players; its JSON is passed on as
 * written, so attribute numbers stay exact.
 */
export function adminPlayerSearchRoutes(
  scope: HttpApp,
  deps: { pool: Pool; upstreams: Upstreams; log: Logger },
): void {
  scope.get(
    '/environments/:environmentId/players',
    { schema: { params: environmentParams, querystring: PlayerSearchQuerySchema } },
    async (request, reply) => {
      const environment = await findEnvironmentContext(deps.pool, request.params.environmentId);
      if (!environment) throw notFound('environment.not_found', 'No environment with that id.');
      const query = request.raw.url?.split('?')[1];
      const path = `/internal/v1/players${query ? `?${query}` : ''}`;
      const answer = await askOwner(deps, 'gateway', environment, undefined, { method: 'GET', path });
      return reply.type(answer.contentType).send(answer.body);
    },
  );
}
