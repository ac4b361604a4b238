import { INTERNAL_HEADERS, LeaderboardQuerySchema, LeaderboardViewSchema } from '@engage/contracts';
import { environmentOf, type HttpApp, notFound, playerOf } from '@engage/kit';
import type { FastifyRequest } from 'fastify';
import { ZodError, z } from 'zod';
import { type ReaderDeps, readLeaderboard } from '../application/reading/read-leaderboard.ts';
import { isVisible } from '../application/reading/view.ts';

const LeaderboardParamsSchema = z.object({ leaderboardKey: z.string().min(1) });

/** Top when the request names none (capped by the board's top size). */
const DEFAULT_TOP = 10;

/**
 * Endpoint 10. Unknown, switched off, out of season and hidden boards are one 404
 * (leaderboard.not_found). A query breaking rules (Around up to 25, PlayerIds up to 100, Top not
 * negative, and Top up to the board's top size when the caller may see the board) is one 400
 * listing them all, in the query's field order, before any 404. The operators' read of a board (the
 * admin API's) is the same read at /internal/v1, whose rows name their players.
 */
export function leaderboardRoutes(
  app: HttpApp,
  deps: ReaderDeps & { definitions: ReaderDeps['definitions'] },
): void {
  boardRoute(app, deps, '/v1/leaderboards/:leaderboardKey', { withPlayerIds: false });
  boardRoute(app, deps, '/internal/v1/leaderboards/:leaderboardKey', { withPlayerIds: true });
}

function boardRoute(
  app: HttpApp,
  deps: ReaderDeps & { definitions: ReaderDeps['definitions'] },
  path: string,
  view: { withPlayerIds: boolean },
): void {
  app.get(
    path,
    {
      schema: {
        params: LeaderboardParamsSchema,
        querystring: LeaderboardQuerySchema,
        response: { 200: LeaderboardViewSchema },
      },
      // The query's problems reach the handler, which adds the board's own rule (Top) to them.
      attachValidation: true,
      // The hottest route: the view is built field by field (src/application/reading/view.ts: no internal row, no
      // id but the named players'), so it is written as is instead of being re-validated by zod on
      // every read. The schema above still types and documents it.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request, reply) => {
      const { environmentId } = environmentOf(request);
      const invalid = request.validationError as (ZodError & { validationContext?: string }) | undefined;
      const canAddTop = invalid?.validationContext === 'querystring' && hasPlayer(request);
      if (invalid && !canAddTop) throw invalid;
      const player = playerOf(request);
      const { leaderboardKey } = request.params;
      const board = await deps.definitions.board(environmentId, leaderboardKey);
      const visible = isVisible(board, player, Date.now());
      const top = LeaderboardQuerySchema.shape.Top.safeParse((request.query as { Top?: unknown }).Top);
      const topIssue =
        visible && top.success && top.data !== undefined && top.data > board.topSize
          ? topTooBig(board.topSize, top.data)
          : undefined;
      if (invalid || topIssue) throw queryProblem(invalid?.issues ?? [], topIssue);
      if (!visible) {
        throw notFound('leaderboard.not_found', `No leaderboard '${leaderboardKey}' for this player.`);
      }
      const { Top, Around, Previous, PlayerIds, LanguageCode } = request.query;
      reply.header('cache-control', 'no-store');
      return readLeaderboard(deps, board, {
        environmentId,
        player,
        top: Top ?? Math.min(DEFAULT_TOP, board.topSize),
        around: Around ?? 0,
        named: PlayerIds ? [...new Set([player.id, ...PlayerIds])] : null,
        previous: Previous ?? false,
        languageCode: LanguageCode,
        withPlayerIds: view.withPlayerIds,
      });
    },
  );
}

const QUERY_FIELDS = Object.keys(LeaderboardQuerySchema.shape);

const topTooBig = (topSize: number, top: number): z.core.$ZodIssue => ({
  code: 'too_big',
  origin: 'number',
  maximum: topSize,
  inclusive: true,
  path: ['Top'],
  input: top,
  message: `Top may be at most ${topSize} on this leaderboard.`,
});

/** The query's issues and the board's own, in the order of the query's fields (as zod lists them). */
function queryProblem(issues: readonly z.core.$ZodIssue[], topIssue: z.core.$ZodIssue | undefined) {
  const position = (issue: z.core.$ZodIssue) => QUERY_FIELDS.indexOf(String(issue.path[0]));
  const all = [...issues, ...(topIssue ? [topIssue] : [])].sort((a, b) => position(a) - position(b));
  return Object.assign(new ZodError(all), { validationContext: 'querystring' });
}

const hasPlayer = (request: FastifyRequest) => request.headers[INTERNAL_HEADERS.player] !== undefined;
