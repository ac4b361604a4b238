import { problemResponses } from '@engage/contracts/http/openapi-problem-responses.ts';
import { MAX_PLAYER_SEARCH_PAGE, PlayerSearchPageSchema } from '@engage/contracts/http/player-search.ts';
import { z } from 'zod';

/** Operators' search of an environment's players in the OpenAPI document (session cookie or admin token). */

type JsonSchema = Record<string, unknown>;

export function playerSearchOperations(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
} {
  const output = z.toJSONSchema(z.object({ a: PlayerSearchPageSchema }), {
    io: 'output',
    target: 'draft-2020-12',
  }) as { $defs?: Record<string, JsonSchema> };
  return { paths: paths(), schemas: output.$defs ?? {} };
}

function paths(): Record<string, Record<string, unknown>> {
  const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });
  return {
    '/admin/v1/environments/{environmentId}/players': {
      get: {
        operationId: 'searchEnvironmentPlayers',
        tags: ['Admin'],
        summary: "The environment's players by id prefix and attribute value, in order of id (viewer).",
        description:
          'Without a filter, every player a page at a time. `attribute` and `value` go together: the ' +
          'players holding that attribute with that value (a number matches any equal number, ' +
          '`12.5` and `12.50`; `true` and `false` match booleans and the text). Numbers in ' +
          '`attributes` are exact, as stored.',
        security: [{ sessionCookie: [] }, { adminToken: [] }],
        parameters: [
          { name: 'environmentId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          {
            name: 'idPrefix',
            in: 'query',
            description: 'Players whose id starts with this.',
            schema: text(200),
          },
          { name: 'attribute', in: 'query', description: "An attribute's key.", schema: text(100) },
          { name: 'value', in: 'query', description: 'The value `attribute` must hold.', schema: text(1000) },
          {
            name: 'after',
            in: 'query',
            description: 'The `nextCursor` of the previous page.',
            schema: text(200),
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_PLAYER_SEARCH_PAGE, default: 50 },
          },
        ],
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/AdminPlayerSearchPage' } },
            },
          },
          ...problemResponses([
            'validation.request',
            'admin.unauthorized',
            'admin.forbidden',
            'environment.not_found',
            'server.unexpected',
          ]),
        },
      },
    },
  };
}
