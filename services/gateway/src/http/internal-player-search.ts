import { PlayerSearchQuerySchema } from '@engage/contracts/http/player-search.ts';
import { environmentOf, type HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { stringify as stringifyLossless } from 'lossless-json';
import { findPlayers } from '../application/player-search.ts';
import { answerValue } from './players.ts';

/**
 * The control plane's search of an environment's players by id prefix and attribute value, for its
 * operators (the environment named by the signed internal headers). Attribute numbers are answered
 * exactly, as stored.
 */
export function internalPlayerSearchRoutes(scope: HttpApp, deps: { pool: Pool }): void {
  scope.get('/players', { schema: { querystring: PlayerSearchQuerySchema } }, async (request, reply) => {
    const page = await findPlayers(deps.pool, environmentOf(request).environmentId, request.query);
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
  });
}
