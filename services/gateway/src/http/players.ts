import { type AttributeValue, type EnvironmentContext, isDecimalValue, topics } from '@engage/contracts';
import { enqueueOutbox } from '@engage/kafka';
import { type HttpApp, Problem, problem, requestProblem } from '@engage/kit';
import { type Pool, TransactionRetriesExhausted, withTransaction } from '@engage/postgres';
import { LosslessNumber, stringify as stringifyLossless } from 'lossless-json';
import { admitPlayers, liveCapOf } from '../application/admit-players.ts';
import type { Authenticator } from '../application/authenticator.ts';
import type { EdgeViews } from '../application/edge-views/edge-views.ts';
import { type PlayerDirectory, quotaProblem, readPlayerId } from '../application/player-directory.ts';
import type { StateOutbox } from '../application/state-outbox.ts';
import { parseJsonExactly } from '../domain/lossless-json.ts';
import { checkAttributeSet } from '../domain/player-attributes.ts';
import { monthOf } from '../domain/quota.ts';
import { playerAttributesRecord } from '../domain/state-records.ts';
import { isIanaTimeZone } from '../domain/time-zone.ts';
import {
  loadAttributeDefinitions,
  lockPlayerState,
  writePlayerAttributes,
} from '../store/player-attributes.ts';
import { upsertPlayers } from '../store/players.ts';
import { environmentOfRequest, requireApiKey, useJsonParser } from './api-key-scope.ts';

export interface PlayerRouteDeps {
  authenticator: Authenticator;
  pool: Pool;
  players: PlayerDirectory;
  /** Where attribute changes are recorded for players.attributes.v1. */
  outbox: StateOutbox;
  /** The organizations' Live player caps, among what this replica holds. */
  views: Pick<EdgeViews, 'organization'>;
}

/**
 * POST /v1/players/attributes: sets some attributes of one player, all or none, creating the
 * player on first sight (admitted against the monthly quota like any other sighting). Numbers are
 * exact both ways: the body is parsed losslessly and the answer writes each number's decimal text.
 * A write that changes the player is recorded for players.attributes.v1 in its transaction.
 */
export async function playerRoutes(scope: HttpApp, deps: PlayerRouteDeps): Promise<void> {
  requireApiKey(scope, deps.authenticator);
  useJsonParser(scope, parseJsonExactly);
  scope.post('/v1/players/attributes', async (request, reply) => {
    const environment = environmentOfRequest(request);
    const body = request.body as { attributes?: unknown; timeZone?: unknown } | null;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw requestProblem('The request body must be a JSON object.', 'not_an_object');
    }
    const named = readPlayerId('body', body);
    const definitions = await loadAttributeDefinitions(deps.pool, environment.environmentId);
    const check = checkAttributeSet(body.attributes, new Map(definitions.map((d) => [d.key, d])));
    const timeZone = checkTimeZone(body.timeZone);
    if ('refused' in named || !check.ok || 'refused' in timeZone) {
      // Every broken rule, in the order the request's schema lists its fields; the first names the status.
      const refusals = [
        ...('refused' in named ? [named.refused] : []),
        ...(check.ok ? [] : [new Problem(check.status, check.errors)]),
        ...('refused' in timeZone ? [timeZone.refused] : []),
      ];
      throw new Problem(
        refusals[0]!.status,
        refusals.flatMap((p) => p.errors),
      );
    }
    const player = await writeAttributes(
      deps,
      environment,
      named.playerId,
      timeZone.value,
      check.set,
      check.remove,
    );
    return reply
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(stringifyLossless(player));
  });
}

/** The answer's attributes: a number as a JSON number written from its exact decimal text. */
export const answerValue = (value: AttributeValue) =>
  isDecimalValue(value) ? new LosslessNumber(value.decimal) : value;

function checkTimeZone(value: unknown): { value: string | null } | { refused: Problem } {
  if (value === undefined || value === null) return { value: null };
  if (typeof value === 'string' && isIanaTimeZone(value)) return { value };
  return {
    refused: problem('player.time_zone_invalid'),
  };
}

async function writeAttributes(
  deps: PlayerRouteDeps,
  environment: EnvironmentContext,
  playerId: string,
  timeZone: string | null,
  set: Record<string, AttributeValue>,
  remove: string[],
) {
  const month = monthOf(new Date());
  const mark = deps.players.mark();
  try {
    const written = await withTransaction(deps.pool, async (client) => {
      const liveCap = liveCapOf(deps.views, environment);
      const refused = (await admitPlayers(client, environment, liveCap, month, [playerId])).get(playerId);
      if (refused) throw quotaProblem(refused);
      const before = await lockPlayerState(client, environment.environmentId, playerId);
      await upsertPlayers(client, environment.environmentId, [{ externalId: playerId, timeZone }]);
      const after = await writePlayerAttributes(client, environment.environmentId, playerId, set, remove);
      const record = playerAttributesRecord({
        organizationId: environment.organizationId,
        environmentId: environment.environmentId,
        playerId,
        before,
        after,
        changedAt: new Date(),
      });
      if (record) await enqueueOutbox(client, topics.playersAttributes, deps.outbox.topicPrefix, [record]);
      return after;
    });
    deps.outbox.kick();
    deps.players.remember(mark, environment.environmentId, playerId, { ...written, activeMonth: month });
    const attributes = Object.fromEntries(
      Object.entries(written.attributes).map(([key, value]) => [key, answerValue(value)]),
    );
    return { playerId, timeZone: written.timeZone, attributes };
  } catch (err) {
    if (err instanceof TransactionRetriesExhausted) {
      throw problem('player_attribute.concurrent_update');
    }
    throw err;
  }
}
