import { type AttributeValue, type EnvironmentContext, isDecimalValue } from '@engage/contracts';
import { type HttpApp, Problem, problem } from '@engage/kit';
import { type Pool, TransactionRetriesExhausted, withTransaction } from '@engage/postgres';
import { LosslessNumber, stringify as stringifyLossless } from 'lossless-json';
import type { Authenticator } from '../auth/authenticator.ts';
import { parseJsonExactly } from '../domain/lossless-json.ts';
import { checkAttributeSet } from '../domain/player-attributes.ts';
import { monthOf } from '../domain/quota.ts';
import { isIanaTimeZone } from '../domain/time-zone.ts';
import { admitPlayers } from '../player-admission.ts';
import { type PlayerDirectory, playerIdOf, quotaProblem } from '../players.ts';
import { loadAttributeDefinitions, writePlayerAttributes } from '../store/player-attributes.ts';
import { upsertPlayers } from '../store/players.ts';
import { environmentOfRequest, requireApiKey, useJsonParser } from './api-key-scope.ts';

export interface PlayerRouteDeps {
  authenticator: Authenticator;
  pool: Pool;
  players: PlayerDirectory;
}

/**
 * POST /v1/players/attributes: sets some attributes of one player, all or none, creating the
 * player on first sight (admitted against the monthly quota like any other sighting). Numbers are
 * exact both ways: the body is parsed losslessly and the answer writes each number's decimal text.
 */
export async function playerRoutes(scope: HttpApp, deps: PlayerRouteDeps): Promise<void> {
  requireApiKey(scope, deps.authenticator);
  useJsonParser(scope, parseJsonExactly);
  scope.post('/v1/players/attributes', async (request, reply) => {
    const environment = environmentOfRequest(request);
    const playerId = playerIdOf('body', request.body);
    const body = request.body as { attributes?: unknown; timeZone?: unknown };
    const timeZone = checkTimeZone(body.timeZone);
    const definitions = await loadAttributeDefinitions(deps.pool, environment.environmentId);
    const check = checkAttributeSet(body.attributes, new Map(definitions.map((d) => [d.key, d])));
    if (!check.ok) throw new Problem(check.status, check.errors);
    const player = await writeAttributes(deps, environment, playerId, timeZone, check.set, check.remove);
    return reply
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(stringifyLossless(player));
  });
}

/** The answer's attributes: a number as a JSON number written from its exact decimal text. */
const answerValue = (value: AttributeValue) =>
  isDecimalValue(value) ? new LosslessNumber(value.decimal) : value;

function checkTimeZone(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && isIanaTimeZone(value)) return value;
  throw problem(400, 'player.time_zone_invalid', 'timeZone is not an IANA time zone name.');
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
  try {
    const written = await withTransaction(deps.pool, async (client) => {
      const refused = (await admitPlayers(client, environment, month, [playerId])).get(playerId);
      if (refused) throw quotaProblem(refused);
      await upsertPlayers(client, environment.environmentId, [{ externalId: playerId, timeZone }]);
      return writePlayerAttributes(client, environment.environmentId, playerId, set, remove);
    });
    deps.players.remember(environment.environmentId, playerId, { ...written, activeMonth: month });
    const attributes = Object.fromEntries(
      Object.entries(written.attributes).map(([key, value]) => [key, answerValue(value)]),
    );
    return { playerId, timeZone: written.timeZone, attributes };
  } catch (err) {
    if (err instanceof TransactionRetriesExhausted) {
      throw problem(
        409,
        'player_attribute.concurrent_update',
        "Other requests kept writing this player's attributes; nothing was written. Send it again.",
      );
    }
    throw err;
  }
}
