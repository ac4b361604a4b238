import { type EnvironmentContext, MAX_PLAYER_ID_LENGTH, type PlayerContext } from '@engage/contracts';
import { type Problem, problem, requestProblem, unexpectedProblem, validationProblem } from '@engage/kit';
import { type Pool, TransactionRetriesExhausted, withTransaction } from '@engage/postgres';
import { TtlCache } from './cache.ts';
import { monthOf } from './domain/quota.ts';
import { GroupedTtlCache } from './grouped-cache.ts';
import { admitPlayers } from './player-admission.ts';
import { type PlayerRecord, upsertPlayers } from './store/players.ts';

/**
 * Players known to this replica: created, and active in the month recorded. A player found here
 * for the current month costs no query at all; anything else goes through admission (quota) and
 * the upsert. Entries live `cacheTtlMs`, so an attribute change made through another replica is
 * seen within that bound.
 */
export interface KnownPlayer {
  timeZone: string | null;
  attributes: PlayerRecord['attributes'];
  activeMonth: string;
}

/** What event ingestion needs to know of a player: created, active this month, and its zone. */
export interface Sighting {
  timeZone: string | null;
  activeMonth: string;
}

/**
 * Sightings are kept much longer than attributes: whether a player exists and was active this
 * month does not change within the month; its zone is stamped on records without one, so a zone
 * changed through another replica reaches records within this bound.
 */
export const SIGHTING_TTL_MS = 10 * 60 * 1000;

export interface PlayerDirectory {
  /** The player a forwarded request names, created (and admitted) on first sight. */
  resolve(environment: EnvironmentContext, externalId: string): Promise<PlayerContext>;
  /** A reader of the environment's sightings for the work of one request. */
  sightingsOf(environmentId: string): (externalId: string) => Sighting | undefined;
  rememberSighting(environmentId: string, externalId: string, sighting: Sighting): void;
  remember(environmentId: string, externalId: string, player: KnownPlayer): void;
}

export function createPlayerDirectory(options: { pool: Pool; cacheTtlMs: number }): PlayerDirectory {
  const cache = new TtlCache<string, KnownPlayer>({ ttlMs: options.cacheTtlMs, maxEntries: 200_000 });
  const sightings = new GroupedTtlCache<string, string, Sighting>({
    ttlMs: SIGHTING_TTL_MS,
    maxEntries: 500_000,
  });
  const keyOf = (environmentId: string, externalId: string) => `${environmentId}\u0000${externalId}`;
  const directory: PlayerDirectory = {
    sightingsOf: (environmentId) => sightings.groupView(environmentId),
    rememberSighting: (environmentId, externalId, sighting) =>
      sightings.set(environmentId, externalId, sighting),
    remember: (environmentId, externalId, player) => {
      cache.set(keyOf(environmentId, externalId), player);
      sightings.set(environmentId, externalId, {
        timeZone: player.timeZone,
        activeMonth: player.activeMonth,
      });
    },
    async resolve(environment, externalId) {
      const month = monthOf(new Date());
      const cached = cache.get(keyOf(environment.environmentId, externalId));
      if (cached && cached.activeMonth === month) {
        return { id: externalId, timeZone: cached.timeZone, attributes: cached.attributes, isNew: false };
      }
      const record = await admitAndUpsertOne(options.pool, environment, month, externalId);
      directory.remember(environment.environmentId, externalId, {
        timeZone: record.timeZone,
        attributes: record.attributes,
        activeMonth: month,
      });
      return {
        id: externalId,
        timeZone: record.timeZone,
        attributes: record.attributes,
        isNew: record.isNew,
      };
    },
  };
  return directory;
}

async function admitAndUpsertOne(
  pool: Pool,
  environment: EnvironmentContext,
  month: string,
  externalId: string,
): Promise<PlayerRecord> {
  try {
    return await withTransaction(pool, async (client) => {
      const refused = await admitPlayers(client, environment, month, [externalId]);
      const code = refused.get(externalId);
      if (code) throw quotaProblem(code);
      const records = await upsertPlayers(client, environment.environmentId, [
        { externalId, timeZone: null },
      ]);
      return records.get(externalId)!;
    });
  } catch (err) {
    if (err instanceof TransactionRetriesExhausted) throw unexpectedProblem();
    throw err;
  }
}

const QUOTA_MESSAGES: Record<string, string> = {
  'sandbox.monthly_active_players_exceeded': 'This Sandbox has seen its 100th player this month.',
  'sandbox.daily_event_limit_exceeded': 'This Sandbox has taken its 10,000th event today.',
  monthly_mau_limit_exceeded: "The organization's cap on monthly active players is reached.",
};

export const quotaMessage = (code: string) => QUOTA_MESSAGES[code] ?? 'A usage limit is reached.';
export const quotaProblem = (code: string) => problem(409, code, quotaMessage(code));

/**
 * The player id of a request: the PlayerId query parameter (GET) or the playerId body field (POST).
 * Missing and too long have the contract's own codes; anything else that is not text is
 * `validation.player_id`. A body that is not an object is refused as a whole.
 */
export function playerIdOf(source: 'query' | 'body', container: unknown): string {
  const read = readPlayerId(source, container);
  if ('refused' in read) throw read.refused;
  return read.playerId;
}

/** As playerIdOf, with the refusal returned, so a caller can list it with the request's other problems. */
export function readPlayerId(
  source: 'query' | 'body',
  container: unknown,
): { playerId: string } | { refused: Problem } {
  if (
    source === 'body' &&
    (container === null || typeof container !== 'object' || Array.isArray(container))
  ) {
    return { refused: requestProblem('The request body must be a JSON object.', 'not_an_object') };
  }
  const field = source === 'query' ? 'PlayerId' : 'playerId';
  const value = (container as Record<string, unknown> | undefined)?.[field];
  if (value === undefined || value === null || value === '') {
    return {
      refused: validationProblem([
        { path: [field], message: 'The player id is required.', reason: 'missing', missing: true },
      ]),
    };
  }
  if (typeof value !== 'string') {
    return {
      refused: validationProblem([
        { path: [field], message: 'The player id must be text.', reason: 'invalid_type' },
      ]),
    };
  }
  if (value.length > MAX_PLAYER_ID_LENGTH) {
    return {
      refused: validationProblem([
        {
          path: [field],
          message: `The player id is longer than ${MAX_PLAYER_ID_LENGTH} characters.`,
          reason: 'too_big',
          tooLong: true,
        },
      ]),
    };
  }
  return { playerId: value };
}
