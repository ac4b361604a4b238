import {
  MissionCollectionSchema,
  MissionRequestSchema,
  MissionSchema,
  PlayerIdSchema,
} from '@engage/contracts';
import { environmentOf, type HttpApp, playerOf } from '@engage/kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  acceptMission,
  type MissionDeps,
  readCollection,
  readMission,
  readMissions,
} from '../application/missions.ts';

const MissionParamsSchema = z.object({ missionKey: z.string().min(1) });
const CollectionParamsSchema = z.object({ collectionKey: z.string().min(1) });

function readerOf(request: FastifyRequest) {
  const { languageCode } = request.body as z.infer<typeof MissionRequestSchema>;
  return { env: environmentOf(request), player: playerOf(request), languageCode };
}

/**
 * Endpoints 1 to 3 and the acceptance of a mission. They are POST because reading a mission can
 * enter the player into it, so their answers are never cached.
 */
export function missionRoutes(app: HttpApp, deps: MissionDeps): void {
  app.post(
    '/v1/missions',
    { schema: { body: MissionRequestSchema, response: { 200: z.array(MissionSchema) } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return readMissions(deps, readerOf(request), (rules) =>
        rules.missionOrder.filter((m) => m.definition.listed),
      );
    },
  );

  app.post(
    '/v1/missions/:missionKey',
    { schema: { params: MissionParamsSchema, body: MissionRequestSchema, response: { 200: MissionSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return readMission(deps, readerOf(request), request.params.missionKey);
    },
  );

  app.post(
    '/v1/missions/:missionKey/accept',
    { schema: { params: MissionParamsSchema, body: MissionRequestSchema, response: { 200: MissionSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return acceptMission(deps, readerOf(request), request.params.missionKey);
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
      reply.header('cache-control', 'no-store');
      return readCollection(deps, readerOf(request), request.params.collectionKey);
    },
  );
}

/**
 * Internal read for operators (the gateway's admin API): the player's listed missions as endpoint 1
 * shows them, without entering the player into any (an operator's look changes nothing).
 */
export function missionPeekRoutes(app: HttpApp, deps: MissionDeps): void {
  app.get(
    '/internal/v1/players/:playerId/missions',
    {
      schema: {
        params: z.object({ playerId: PlayerIdSchema }),
        response: { 200: z.array(MissionSchema) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const reader = { env: environmentOf(request), player: playerOf(request), languageCode: undefined };
      return readMissions(deps, reader, (rules) => rules.missionOrder.filter((m) => m.definition.listed), {
        peek: true,
      });
    },
  );
}
