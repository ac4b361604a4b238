import { MissionCollectionSchema, MissionRequestSchema, MissionSchema } from '@engage/contracts';
import { environmentOf, type HttpApp, notFound } from '@engage/kit';
import { z } from 'zod';

const MissionParamsSchema = z.object({ missionKey: z.string().min(1) });
const CollectionParamsSchema = z.object({ collectionKey: z.string().min(1) });

/**
 * Endpoints 1 to 3. They are POST because reading a mission can enter the player into it, so their
 * answers are never cached. No mission or collection is defined yet: the feed is empty and every key
 * is unknown.
 */
export function missionRoutes(app: HttpApp): void {
  app.post(
    '/v1/missions',
    { schema: { body: MissionRequestSchema, response: { 200: z.array(MissionSchema) } } },
    async (request, reply) => {
      environmentOf(request);
      reply.header('cache-control', 'no-store');
      return [];
    },
  );

  app.post(
    '/v1/missions/:missionKey',
    { schema: { params: MissionParamsSchema, body: MissionRequestSchema, response: { 200: MissionSchema } } },
    async (request, reply) => {
      environmentOf(request);
      reply.header('cache-control', 'no-store');
      throw notFound('mission.not_found', `No mission '${request.params.missionKey}' for this player.`);
    },
  );

  app.post(
    '/v1/mission-collections/:collectionKey',
    {
      schema: {
        params: CollectionParamsSchema,
        body: MissionRequestSchema,
        response: { 200: MissionCollectionSchema },
      },
    },
    async (request, reply) => {
      environmentOf(request);
      reply.header('cache-control', 'no-store');
      throw notFound(
        'mission_collection.not_found',
        `No mission collection '${request.params.collectionKey}'.`,
      );
    },
  );
}
