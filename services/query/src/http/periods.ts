import { BoardPeriodsSchema, PeriodsQuerySchema } from '@engage/contracts/http/player-support.ts';
import { environmentOf, type HttpApp, notFound } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { readBoardPeriods } from '../application/reading/board-periods.ts';
import type { Definitions } from '../store/definitions.ts';

const PeriodsParamsSchema = z.object({ leaderboardKey: z.string().min(1) });
const DEFAULT_PERIODS = 10;

/**
 * Internal read for operators (the gateway's admin API): a board's newest periods. Any defined
 * board, whoever may see it; the settled results themselves are endpoint 10 with Previous=true.
 */
export function periodRoutes(app: HttpApp, deps: { pool: Pool; definitions: Definitions }): void {
  app.get(
    '/internal/v1/leaderboards/:leaderboardKey/periods',
    {
      schema: {
        params: PeriodsParamsSchema,
        querystring: PeriodsQuerySchema,
        response: { 200: BoardPeriodsSchema },
      },
    },
    async (request, reply) => {
      const { environmentId } = environmentOf(request);
      const { leaderboardKey } = request.params;
      if (!(await deps.definitions.board(environmentId, leaderboardKey))) {
        throw notFound('leaderboard.not_found', `No leaderboard '${leaderboardKey}'.`);
      }
      reply.header('cache-control', 'no-store');
      return readBoardPeriods(
        deps.pool,
        environmentId,
        leaderboardKey,
        request.query.limit ?? DEFAULT_PERIODS,
      );
    },
  );
}
