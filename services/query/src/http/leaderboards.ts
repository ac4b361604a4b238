import { LeaderboardQuerySchema, LeaderboardViewSchema } from '@engage/contracts';
import { environmentOf, type HttpApp, notFound } from '@engage/kit';
import { z } from 'zod';

const LeaderboardParamsSchema = z.object({ leaderboardKey: z.string().min(1) });

/**
 * Endpoint 10. The query is validated first (Around up to 25, PlayerIds up to 100, Top not negative).
 * No leaderboard is defined yet, so every key is one the caller cannot see: 404 leaderboard.not_found,
 * the code used for unknown, switched-off, out-of-season and hidden boards alike.
 */
export function leaderboardRoutes(app: HttpApp): void {
  app.get(
    '/v1/leaderboards/:leaderboardKey',
    {
      schema: {
        params: LeaderboardParamsSchema,
        querystring: LeaderboardQuerySchema,
        response: { 200: LeaderboardViewSchema },
      },
    },
    async (request) => {
      environmentOf(request);
      throw notFound(
        'leaderboard.not_found',
        `No leaderboard '${request.params.leaderboardKey}' for this player.`,
      );
    },
  );
}
