import { LeaderboardQuerySchema, LeaderboardViewSchema } from '@engage/contracts';
import { environmentOf, type HttpApp, notFound, playerOf, validationProblem } from '@engage/kit';
import { z } from 'zod';
import { type ReaderDeps, readLeaderboard } from '../boards/reader.ts';
import { isVisible } from '../boards/view.ts';

const LeaderboardParamsSchema = z.object({ leaderboardKey: z.string().min(1) });

/** Top when the request names none (capped by the board's top size). */
const DEFAULT_TOP = 10;

/**
 * Endpoint 10. The query is validated first (Around up to 25, PlayerIds up to 100, Top not
 * negative), then the board: unknown, switched off, out of season and hidden are one 404
 * (leaderboard.not_found); Top above the board's top size is 400 validation.top.
 */
export function leaderboardRoutes(
  app: HttpApp,
  deps: ReaderDeps & { definitions: ReaderDeps['definitions'] },
): void {
  app.get(
    '/v1/leaderboards/:leaderboardKey',
    {
      schema: {
        params: LeaderboardParamsSchema,
        querystring: LeaderboardQuerySchema,
        response: { 200: LeaderboardViewSchema },
      },
      // The hottest route: the view is built field by field (src/boards/view.ts: no internal row, no
      // id but the named players'), so it is written as is instead of being re-validated by zod on
      // every read (a tenth of a read's CPU). The schema above still types and documents it.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request, reply) => {
      const { environmentId } = environmentOf(request);
      const player = playerOf(request);
      const { leaderboardKey } = request.params;
      const board = await deps.definitions.board(environmentId, leaderboardKey);
      if (!isVisible(board, player, Date.now())) {
        throw notFound('leaderboard.not_found', `No leaderboard '${leaderboardKey}' for this player.`);
      }
      const { Top, Around, Previous, PlayerIds, LanguageCode } = request.query;
      if (Top !== undefined && Top > board.topSize) {
        throw validationProblem([
          {
            path: ['Top'],
            message: `Top may be at most ${board.topSize} on this leaderboard.`,
            reason: 'too_big',
          },
        ]);
      }
      reply.header('cache-control', 'no-store');
      return readLeaderboard(deps, board, {
        environmentId,
        player,
        top: Top ?? Math.min(DEFAULT_TOP, board.topSize),
        around: Around ?? 0,
        named: PlayerIds ? [...new Set([player.id, ...PlayerIds])] : null,
        previous: Previous ?? false,
        languageCode: LanguageCode,
      });
    },
  );
}
