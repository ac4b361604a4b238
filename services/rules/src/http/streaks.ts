import { LocalizedPlayerQuerySchema, StreakSchema } from '@engage/contracts';
import { environmentOf, type HttpApp, notFound } from '@engage/kit';
import { z } from 'zod';

const StreakParamsSchema = z.object({ streakKey: z.string().min(1) });

/**
 * Endpoints 11 and 12. No streak is defined yet: the list is empty, and every key answers the one
 * 404 the contract uses for unknown, switched-off and hidden streaks alike.
 */
export function streakRoutes(app: HttpApp): void {
  app.get(
    '/v1/streaks',
    { schema: { querystring: LocalizedPlayerQuerySchema, response: { 200: z.array(StreakSchema) } } },
    async (request) => {
      environmentOf(request);
      return [];
    },
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
    async (request) => {
      environmentOf(request);
      throw notFound('streak.not_found', `No streak '${request.params.streakKey}' for this player.`);
    },
  );
}
