import type { ProblemCode } from '@engage/contracts';
import { problemResponses } from '@engage/contracts/http/openapi-problem-responses.ts';
import {
  BoardPeriodsSchema,
  JournalPageSchema,
  MAX_JOURNAL_PAGE,
  MAX_PERIODS_PAGE,
  OperatorLeaderboardViewSchema,
  SupportAdjustmentSchema,
} from '@engage/contracts/http/player-support.ts';
import { z } from 'zod';

/**
 * The console's reads of one player and one board, and support's adjustment, in the OpenAPI
 * document. Answers reuse the /v1 components where a /v1 route answers the same thing. They take
 * an operator's session cookie (writes with `X-CSRF-Token`) or the admin token.
 */

type JsonSchema = Record<string, unknown>;

const json = (description: string, schema: JsonSchema) => ({
  description,
  content: { 'application/json': { schema } },
});
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const either = [{ sessionCookie: [] }, { adminToken: [] }];

const environmentId = {
  name: 'environmentId',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};
const playerId = {
  name: 'playerId',
  in: 'path',
  required: true,
  description: "The game's own id for the player.",
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};
const leaderboardKey = {
  name: 'leaderboardKey',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};

const REFUSALS = [
  'validation.request',
  'player.external_id_too_long',
  'admin.unauthorized',
  'admin.forbidden',
  'admin.csrf_failed',
  'environment.not_found',
  'server.unexpected',
] as const;
const refusals = (...notFound: ProblemCode[]) => problemResponses([...REFUSALS, ...notFound]);

export function playerOperations(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
} {
  const output = z.toJSONSchema(
    z.object({ a: JournalPageSchema, b: BoardPeriodsSchema, c: OperatorLeaderboardViewSchema }),
    {
      io: 'output',
      target: 'draft-2020-12',
    },
  ) as { $defs?: Record<string, JsonSchema> };
  const input = z.toJSONSchema(z.object({ a: SupportAdjustmentSchema }), {
    io: 'input',
    target: 'draft-2020-12',
  }) as { $defs?: Record<string, JsonSchema> };
  return { paths: paths(), schemas: { ...output.$defs, ...input.$defs } };
}

function read(operationId: string, summary: string, answer: JsonSchema, extra: object = {}) {
  return {
    get: {
      operationId,
      tags: ['Admin'],
      summary,
      security: either,
      parameters: [environmentId, playerId],
      responses: { '200': json('OK', answer), ...refusals('player.not_found') },
      ...extra,
    },
  };
}

function paths(): Record<string, Record<string, unknown>> {
  const player = '/admin/v1/environments/{environmentId}/players/{playerId}';
  const board = '/admin/v1/environments/{environmentId}/leaderboards/{leaderboardKey}';
  return {
    [player]: read(
      'getEnvironmentPlayer',
      'A player of the environment with its time zone and attributes, as POST /v1/players/attributes answers (viewer).',
      ref('Player'),
    ),
    [`${player}/points`]: read(
      'getEnvironmentPlayerPoints',
      "The player's points balance, as GET /v1/points answers (viewer).",
      ref('PointsBalance'),
    ),
    [`${player}/journal`]: {
      get: {
        ...read(
          'listEnvironmentPlayerJournal',
          "A page of the player's points journal, newest first: adjustments, purchases and rewards (viewer).",
          ref('AdminJournalPage'),
        ).get,
        parameters: [
          environmentId,
          playerId,
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_JOURNAL_PAGE, default: 20 },
          },
          {
            name: 'before',
            in: 'query',
            description: 'The `nextBefore` of the previous page.',
            schema: { type: 'integer', minimum: 1 },
          },
        ],
      },
    },
    [`${player}/missions`]: read(
      'listEnvironmentPlayerMissions',
      "The player's listed missions with their progress, as POST /v1/missions answers, without entering the player into any (viewer).",
      { type: 'array', items: ref('Mission') },
    ),
    [`${player}/streaks`]: read(
      'listEnvironmentPlayerStreaks',
      "The player's streaks, as GET /v1/streaks answers (viewer).",
      { type: 'array', items: ref('Streak') },
    ),
    [`${player}/points/adjustments`]: {
      post: {
        operationId: 'adjustEnvironmentPlayerPoints',
        tags: ['Admin'],
        summary: 'A support adjustment: credits or debits the balance with a reason (support).',
        description:
          'Forwarded to the ledger as POST /v1/points/adjustments would be, with the Idempotency-Key ' +
          'header as the idempotency key: a retry with the same key answers the first adjustment ' +
          '(`Idempotent-Replayed: true`) and moves nothing. Recorded in the audit log with the ' +
          'operator, amount and reason.',
        security: either,
        parameters: [
          environmentId,
          playerId,
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: true,
            description: 'A new key per adjustment, the same key when the same adjustment is sent again.',
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('AdminSupportAdjustment') } },
        },
        responses: {
          '200': json('OK', ref('PointsAdjustmentResult')),
          ...refusals(
            'player.not_found',
            'points_adjustment.amount_zero',
            'points_adjustment.reason_too_long',
            'points.insufficient_balance',
            'points.concurrent_update',
            'points_adjustment.idempotency_key_conflict',
          ),
        },
      },
    },
    [board]: {
      get: {
        operationId: 'getEnvironmentLeaderboard',
        tags: ['Admin'],
        summary:
          'A leaderboard as a player sees it: top, those around the player, named players; as GET /v1/leaderboards/{leaderboardKey} answers, but with each player row’s playerId (viewer).',
        description:
          'Previous=true answers the last settled period with each row’s league movement. The player must exist.',
        security: either,
        parameters: [
          environmentId,
          leaderboardKey,
          {
            name: 'PlayerId',
            in: 'query',
            required: true,
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
          { name: 'Top', in: 'query', schema: { type: 'integer', minimum: 0 } },
          { name: 'Around', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 25 } },
          { name: 'Previous', in: 'query', schema: { type: 'boolean' } },
        ],
        responses: {
          '200': json('OK', ref('AdminLeaderboardView')),
          ...refusals('player.not_found', 'leaderboard.not_found'),
        },
      },
    },
    [`${board}/periods`]: {
      get: {
        operationId: 'listEnvironmentLeaderboardPeriods',
        tags: ['Admin'],
        summary: "The board's newest periods, open and settled, newest first (viewer).",
        security: either,
        parameters: [
          environmentId,
          leaderboardKey,
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_PERIODS_PAGE, default: 10 },
          },
        ],
        responses: {
          '200': json('OK', ref('AdminBoardPeriods')),
          ...refusals('leaderboard.not_found'),
        },
      },
    },
  };
}
