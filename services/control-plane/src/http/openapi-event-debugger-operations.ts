import { problemResponses } from '@engage/contracts/http/openapi-problem-responses.ts';
import { MAX_RECENT_EVENTS_PAGE, RecentEventsPageSchema } from '@engage/contracts/http/recent-events.ts';
import { z } from 'zod';

/** The live event debugger's operation in the OpenAPI document (session cookie or admin token). */

type JsonSchema = Record<string, unknown>;

export function eventDebuggerOperations(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
} {
  const output = z.toJSONSchema(z.object({ a: RecentEventsPageSchema }), {
    io: 'output',
    target: 'draft-2020-12',
  }) as { $defs?: Record<string, JsonSchema> };
  return { paths: paths(), schemas: output.$defs ?? {} };
}

function paths(): Record<string, Record<string, unknown>> {
  return {
    '/admin/v1/environments/{environmentId}/events/recent': {
      get: {
        operationId: 'listRecentEvents',
        tags: ['Admin'],
        summary: "The environment's recent event items, accepted or refused with their codes (viewer).",
        description:
          'The live event debugger: the items of recent `POST /v1/events` batches, newest first. Refused ' +
          'items are always recorded; accepted ones only while someone watches (`watch=true`, which keeps ' +
          'recording them for RECENT_EVENTS_WATCH_TTL_MS). The environment keeps at most ' +
          'RECENT_EVENTS_MAX_ITEMS items (`keeps`); recording is best effort and never slows ingest.',
        security: [{ sessionCookie: [] }, { adminToken: [] }],
        parameters: [
          { name: 'environmentId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          { name: 'outcome', in: 'query', schema: { type: 'string', enum: ['accepted', 'refused'] } },
          { name: 'playerId', in: 'query', schema: { type: 'string', minLength: 1, maxLength: 200 } },
          {
            name: 'after',
            in: 'query',
            description:
              'Only items recorded after this `id` of an earlier answer (what a poll has not seen).',
            schema: { type: 'string', pattern: '^\\d{1,20}-\\d{1,20}$' },
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_RECENT_EVENTS_PAGE, default: 100 },
          },
          {
            name: 'watch',
            in: 'query',
            description: 'true: record accepted items too for a while (the debugger is open).',
            schema: { type: 'string', enum: ['true', 'false'] },
          },
        ],
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/AdminRecentEventsPage' } },
            },
          },
          ...problemResponses([
            'validation.request',
            'admin.unauthorized',
            'admin.forbidden',
            'environment.not_found',
            'recent_events.unavailable',
          ]),
        },
      },
    },
  };
}
