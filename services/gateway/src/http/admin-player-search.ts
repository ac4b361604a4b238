import { PlayerSearchQuerySchema } from '@engage/contracts/http/player-search.ts';
import { type HttpApp, notFound } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { stringify as stringifyLossless } from 'lossless-json';
import { z } from 'zod';
import { findPlayers } from '../application/player-search.ts';
import { findEnvironmentContext } from '../store/control-plane.ts';
import { answerValue } from './players.ts';

const environmentParams = z.object({ environmentId: z.uuid() });

/**
 * Operators' search of an environment's players by id prefix and attribute value (access:
 * ADMIN_ROUTE_RULES). Attribute numbers are answered exactly, as stored.
 */
export function adminPlayerSearchRoutes(scope: HttpApp, deps: { pool: Pool }): void {
  scope.get(
    '/environments/:environmentId/players',
    { schema: { params: environmentParams, querystring: PlayerSearchQuerySchema } },
    async (request, reply) => {
      const { environmentId } = request.params;
      if (!(await findEnvironmentContext(deps.pool, environmentId)))
        throw notFound('environment.not_found', 'No environment with that id.');
      const page = await findPlayers(deps.pool, environmentId, request.query);
      const players = page.players.map((player) => ({
        playerId: player.externalId,
        timeZone: player.timeZone,
        attributes: Object.fromEntries(
          Object.entries(player.attributes).map(([key, value]) => [key, answerValue(value)]),
        ),
      }));
      return reply
        .type('application/json; charset=utf-8')
        .send(stringifyLossless({ players, nextCursor: page.nextCursor }));
    },
  );
}
