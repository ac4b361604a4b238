import type { PlayerContext } from '@engage/contracts';
import { RecentEventsPageSchema, RecentEventsQuerySchema } from '@engage/contracts/http/recent-events.ts';
import {
  environmentOf,
  type HttpApp,
  type InternalVerifier,
  notFound,
  requireGatewaySignature,
} from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { ORGANIZATION_IN_FLIGHT } from '../application/organization-limit/organization-limit.ts';
import type { RefusalTally } from '../application/organization-limit/refusal-tally.ts';
import type { RecentEvents } from '../application/recent-events.ts';
import { dayOf, monthOf } from '../domain/quota.ts';
import { readPlayer } from '../store/players.ts';
import { readCounters } from '../store/usage.ts';
import { internalPlayerSearchRoutes } from './internal-player-search.ts';

export interface InternalRouteDeps {
  pool: Pool;
  /** Calls signed with the internal secret only: the control plane's. */
  verifier: InternalVerifier;
  recentEvents: RecentEvents;
  refusalTally?: RefusalTally | undefined;
}

const playerParams = z.object({ playerId: z.string().min(1).max(200) });
const usageParams = z.object({ organizationId: z.uuid() });
const usageQuery = z.object({
  sandbox: z
    .union([z.uuid(), z.array(z.uuid())])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
});

/**
 * What the control plane's admin API asks of the gateway, which keeps it: a player as stored, a
 * search of players, the event debugger's record, and the counters of an organization's usage. Each call is signed (as the
 * gateway's own calls to the owners are) and names its environment in the internal headers.
 */
export async function internalRoutes(scope: HttpApp, deps: InternalRouteDeps): Promise<void> {
  requireGatewaySignature(scope, deps.verifier);
  internalPlayerSearchRoutes(scope, { pool: deps.pool });

  scope.get('/players/:playerId', { schema: { params: playerParams } }, async (request) => {
    const { environmentId } = environmentOf(request);
    const { playerId } = request.params;
    const stored = await readPlayer(deps.pool, environmentId, playerId, monthOf(new Date()));
    if (!stored) throw notFound('player.not_found', `No player '${playerId}' in this environment.`);
    const player: PlayerContext = {
      id: playerId,
      timeZone: stored.timeZone,
      attributes: stored.attributes,
      isNew: false,
    };
    return player;
  });

  scope.get(
    '/events/recent',
    { schema: { querystring: RecentEventsQuerySchema, response: { 200: RecentEventsPageSchema } } },
    async (request) => deps.recentEvents.read(environmentOf(request).environmentId, request.query),
  );

  scope.get(
    '/organizations/:organizationId/usage',
    { schema: { params: usageParams, querystring: usageQuery } },
    async (request) => {
      const now = new Date();
      const month = monthOf(now);
      const day = dayOf(now);
      const { organizationId } = request.params;
      const sandboxes = request.query.sandbox;
      const [counts, refusedToday] = await Promise.all([
        readCounters(deps.pool, [
          { scopeId: organizationId, metric: 'monthly_active_players', period: month },
          ...sandboxes.flatMap((scopeId) => [
            { scopeId, metric: 'monthly_active_players' as const, period: month },
            { scopeId, metric: 'daily_events' as const, period: day },
          ]),
        ]),
        deps.refusalTally?.refusedToday(organizationId) ?? 0,
      ]);
      return {
        month: month.slice(0, 7),
        day,
        liveMonthlyActivePlayers: counts[0]!,
        requestsInFlight: { limit: ORGANIZATION_IN_FLIGHT, refusedToday },
        sandboxes: sandboxes.map((environmentId, i) => ({
          environmentId,
          monthlyActivePlayers: counts[1 + 2 * i]!,
          eventsToday: counts[2 + 2 * i]!,
        })),
      };
    },
  );
}
