import { PlayerIdSchema } from '@engage/contracts';
import { JournalPageSchema, JournalQuerySchema } from '@engage/contracts/http/player-support.ts';
import { environmentOf, type HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { readPlayerJournal } from '../application/player-journal.ts';

const JournalParamsSchema = z.object({ playerId: PlayerIdSchema });
const DEFAULT_PAGE = 20;

/** Internal read for operators (the gateway's admin API): a player's points journal, paged. */
export function journalRoutes(app: HttpApp, deps: { pool: Pool }) {
  app.get(
    '/internal/v1/players/:playerId/journal',
    {
      schema: {
        params: JournalParamsSchema,
        querystring: JournalQuerySchema,
        response: { 200: JournalPageSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return readPlayerJournal(deps.pool, environmentOf(request).environmentId, request.params.playerId, {
        before: request.query.before,
        limit: request.query.limit ?? DEFAULT_PAGE,
      });
    },
  );
}
