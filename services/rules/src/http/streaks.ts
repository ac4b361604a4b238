import { LocalizedPlayerQuerySchema, StreakSchema } from '@engage/contracts';
import { environmentOf, type HttpApp, playerOf } from '@engage/kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { readStreak, readStreaks, type StreakDeps } from '../application/streaks.ts';

const StreakParamsSchema = z.object({ streakKey: z.string().min(1) });

function readerOf(request: FastifyRequest) {
  const { LanguageCode } = request.query as z.infer<typeof LocalizedPlayerQuerySchema>;
  return { env: environmentOf(request), player: playerOf(request), languageCode: LanguageCode };
}

/** Endpoints 11 and 12: the player's streaks as they stand now. */
export function streakRoutes(app: HttpApp, deps: StreakDeps): void {
  app.get(
    '/v1/streaks',
    { schema: { querystring: LocalizedPlayerQuerySchema, response: { 200: z.array(StreakSchema) } } },
    (request) => readStreaks(deps, readerOf(request)),
  );

  app.get(
    '/v1/streaks/:streakKey',
    {
      schema: {
        params: StreakParamsSchema,
        querystring: LocalizedPlayerQuerySchema,
        response: { 200: StreakSchema },
      },
    },
    (request) => readStreak(deps, readerOf(request), request.params.streakKey),
  );
}
