import {
  type AttributeValue,
  type EnvironmentContext,
  IDEMPOTENT_REPLAYED_HEADER,
  IdempotencyKeySchema,
  isDecimalValue,
  type PlayerContext,
  PlayerContextSchema,
  PlayerIdSchema,
} from '@engage/contracts';
import {
  JournalQuerySchema,
  PeriodsQuerySchema,
  SupportAdjustmentSchema,
} from '@engage/contracts/http/player-support.ts';
import { type HttpApp, type Logger, notFound, validationProblem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LosslessNumber, stringify as stringifyLossless } from 'lossless-json';
import { z } from 'zod';
import { askOwner, type OwnerAnswer } from '../application/ask-owner.ts';
import { recordChange } from '../application/audited.ts';
import { findEnvironmentContext } from '../store/control-plane.ts';
import type { Upstreams } from '../upstreams/upstreams.ts';
import { writeOrigin } from './admin-operators.ts';

export interface AdminPlayerDeps {
  pool: Pool;
  upstreams: Upstreams;
  log: Logger;
}

const playerParams = z.object({ environmentId: z.uuid(), playerId: PlayerIdSchema });
const boardParams = z.object({ environmentId: z.uuid(), leaderboardKey: z.string().min(1).max(200) });
/** The board read names its player like endpoint 10; the rest of its query is the owner's to check. */
const boardQuery = z.looseObject({ PlayerId: PlayerIdSchema });

const environmentNotFound = () => notFound('environment.not_found', 'No environment with that id.');

/** A stored attribute as /v1/players answers it: decimals keep their exact text. */
const answerValue = (value: AttributeValue) =>
  isDecimalValue(value) ? new LosslessNumber(value.decimal) : value;

/**
 * Operators' reads of one player and one board, and support's adjustment (access: ADMIN_ROUTE_RULES).
 * The environment comes from the path, never from an API key; each read asks the owning service
 * for what the matching /v1 route answers, as a player already known (an operator's look never
 * creates a player nor counts it as active).
 */
export function adminPlayerRoutes(scope: HttpApp, deps: AdminPlayerDeps): void {
  const { pool } = deps;
  const send = (reply: FastifyReply, answer: OwnerAnswer) => reply.type(answer.contentType).send(answer.body);

  scope.get(
    '/environments/:environmentId/players/:playerId',
    { schema: { params: playerParams } },
    async (request, reply) => {
      const { player } = await playerOfRoute(deps, request.params);
      const attributes = Object.fromEntries(
        Object.entries(player.attributes).map(([key, value]) => [key, answerValue(value)]),
      );
      return reply
        .type('application/json; charset=utf-8')
        .send(stringifyLossless({ playerId: player.id, timeZone: player.timeZone, attributes }));
    },
  );

  scope.get(
    '/environments/:environmentId/players/:playerId/points',
    { schema: { params: playerParams } },
    async (request, reply) => {
      const { environment, player } = await playerOfRoute(deps, request.params);
      const path = `/v1/points?PlayerId=${encodeURIComponent(player.id)}`;
      return send(reply, await askOwner(deps, 'ledger', environment, player, { method: 'GET', path }));
    },
  );

  scope.get(
    '/environments/:environmentId/players/:playerId/journal',
    { schema: { params: playerParams, querystring: JournalQuerySchema } },
    async (request, reply) => {
      const { environment, player } = await playerOfRoute(deps, request.params);
      const query = new URLSearchParams();
      if (request.query.limit !== undefined) query.set('limit', String(request.query.limit));
      if (request.query.before !== undefined) query.set('before', String(request.query.before));
      const path = `/internal/v1/players/${encodeURIComponent(player.id)}/journal?${query}`;
      return send(reply, await askOwner(deps, 'ledger', environment, player, { method: 'GET', path }));
    },
  );

  scope.get(
    '/environments/:environmentId/players/:playerId/missions',
    { schema: { params: playerParams } },
    async (request, reply) => {
      const { environment, player } = await playerOfRoute(deps, request.params);
      const path = `/internal/v1/players/${encodeURIComponent(player.id)}/missions`;
      return send(reply, await askOwner(deps, 'rules', environment, player, { method: 'GET', path }));
    },
  );

  scope.get(
    '/environments/:environmentId/players/:playerId/streaks',
    { schema: { params: playerParams } },
    async (request, reply) => {
      const { environment, player } = await playerOfRoute(deps, request.params);
      const path = `/v1/streaks?PlayerId=${encodeURIComponent(player.id)}`;
      return send(reply, await askOwner(deps, 'rules', environment, player, { method: 'GET', path }));
    },
  );

  scope.post(
    '/environments/:environmentId/players/:playerId/points/adjustments',
    { schema: { params: playerParams, body: SupportAdjustmentSchema } },
    async (request, reply) => {
      const idempotencyKey = idempotencyKeyOf(request);
      const { environment, player } = await playerOfRoute(deps, request.params);
      const { amount, reason } = request.body;
      const answer = await askOwner(deps, 'ledger', environment, player, {
        method: 'POST',
        path: '/v1/points/adjustments',
        body: { playerId: player.id, amount, reason, idempotencyKey },
      });
      if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      // The ledger's journal is the record of the money; the audit log says which operator moved it
      // and why. A replay records it too, once: the retry of a submission whose record failed.
      const result = JSON.parse(answer.body.toString('utf8')) as { transactionId: string; balance: number };
      const { organizationId, environmentId } = environment;
      await recordChange(pool, writeOrigin(request), {
        organizationId,
        targets: { organizationId, environmentId, playerId: player.id },
        after: {
          amount,
          reason,
          idempotencyKey,
          transactionId: result.transactionId,
          balance: result.balance,
        },
        onceKey: `points-adjustment:${environmentId}:${result.transactionId}`,
      });
      return send(reply, answer);
    },
  );

  scope.get(
    '/environments/:environmentId/leaderboards/:leaderboardKey',
    { schema: { params: boardParams, querystring: boardQuery } },
    async (request, reply) => {
      const { environment, player } = await playerOfRoute(deps, {
        environmentId: request.params.environmentId,
        playerId: request.query.PlayerId,
      });
      // The query string goes on as sent: the query service checks Top, Around and Previous as on /v1,
      // and answers the operators' view, whose rows name their players.
      const url = request.raw.url ?? request.url;
      const search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
      const path = `/internal/v1/leaderboards/${encodeURIComponent(request.params.leaderboardKey)}${search}`;
      return send(reply, await askOwner(deps, 'query', environment, player, { method: 'GET', path }));
    },
  );

  scope.get(
    '/environments/:environmentId/leaderboards/:leaderboardKey/periods',
    { schema: { params: boardParams, querystring: PeriodsQuerySchema } },
    async (request, reply) => {
      const environment = await environmentOfRoute(pool, request.params.environmentId);
      const limit = request.query.limit === undefined ? '' : `?limit=${request.query.limit}`;
      const path = `/internal/v1/leaderboards/${encodeURIComponent(request.params.leaderboardKey)}/periods${limit}`;
      return send(reply, await askOwner(deps, 'query', environment, undefined, { method: 'GET', path }));
    },
  );
}

async function environmentOfRoute(pool: Pool, environmentId: string): Promise<EnvironmentContext> {
  const environment = await findEnvironmentContext(pool, environmentId);
  if (!environment) throw environmentNotFound();
  return environment;
}

/** The route's environment and its player as the gateway stored it (never created here). */
async function playerOfRoute(
  deps: AdminPlayerDeps,
  params: { environmentId: string; playerId: string },
): Promise<{ environment: EnvironmentContext; player: PlayerContext }> {
  const environment = await environmentOfRoute(deps.pool, params.environmentId);
  const path = `/internal/v1/players/${encodeURIComponent(params.playerId)}`;
  const answer = await askOwner(deps, 'gateway', environment, undefined, { method: 'GET', path });
  const player = PlayerContextSchema.parse(JSON.parse(answer.body.toString('utf8')));
  return { environment, player };
}

/** A support adjustment needs an Idempotency-Key header: a retried submission never moves points twice. */
function idempotencyKeyOf(request: FastifyRequest): string {
  const value = request.headers['idempotency-key'];
  const parsed = IdempotencyKeySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw validationProblem([
    {
      path: ['Idempotency-Key'],
      message:
        value === undefined
          ? 'The Idempotency-Key header is required: a new key per adjustment, the same key on a retry.'
          : 'The Idempotency-Key header must be 1 to 200 characters.',
      reason: value === undefined ? 'missing' : 'invalid',
    },
  ]);
}
