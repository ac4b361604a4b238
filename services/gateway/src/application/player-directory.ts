import {
  type EnvironmentContext,
  fitsCharacters,
  MAX_PLAYER_ID_LENGTH,
  type PlayerContext,
  PROBLEMS,
} from '@engage/contracts';
import { type Problem, problem, requestProblem, unexpectedProblem, validationProblem } from '@engage/kit';
import { listenToChannel, type Pool, TransactionRetriesExhausted, withTransaction } from '@engage/postgres';
import type { QuotaCode } from '../domain/quota.ts';
import { type PlayerRecord, upsertPlayers } from '../store/players.ts';
import { admitPlayers } from './admit-players.ts';
import { GroupedLruCache } from './cache/grouped-lru-cache.ts';
import { RecentChanges } from './cache/recent-changes.ts';
import { currentMonth } from './current-month.ts';
import { playerChangesListening, playerChangesLost, playerResolutions } from './player-metrics.ts';
import { createPlayerReads } from './player-reads.ts';

/** What event ingestion needs to know of a player: created, active this month, and its zone. */
export interface Sighting {
  timeZone: string | null;
  activeMonth: string;
}

/** A player known to this replica; its attributes only once read (ingestion learns the zone alone). */
export interface KnownPlayer extends Sighting {
  attributes: PlayerRecord['attributes'] | undefined;
}

/** Taken before a player is read or written; see PlayerDirectory.remember. */
export type DirectoryMark = number;

/**
 * Players known to this replica: created, active in the month recorded, with their zone and
 * attributes. A player known for the current month costs no query at all; one this replica has
 * not seen is read together with the others unknown meanwhile (player-reads.ts), and only a player
 * new to the month (or to the environment) goes through admission (quota) and the upsert. Entries
 * stay until the month changes or room is needed (least recently used first). A change to a
 * player's zone or attributes, by any replica, is announced by Postgres (migration 0005) and drops
 * this replica's entry; while that channel is not listened to, nothing is kept, and every loss of
 * it clears everything.
 */
export interface PlayerDirectory {
  /** The player a forwarded request names, created (and admitted) on first sight. */
  resolve(environment: EnvironmentContext, externalId: string): Promise<PlayerContext>;
  /** A reader of the environment's known players for the work of one request. */
  knownOf(environmentId: string): (externalId: string) => KnownPlayer | undefined;
  mark(): DirectoryMark;
  /**
   * Keeps what was read or written after `mark` was taken, unless a change to the player was
   * announced (or the channel lost) since: what was read then may be older than the change.
   */
  remember(mark: DirectoryMark, environmentId: string, externalId: string, player: KnownPlayer): void;
  /** Resolves once LISTEN is in effect (now, or with `next`: after the next (re)connection). */
  whenListening(options?: { next?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** Announced changes held for the reads in flight (two generations of this many players). */
const CHANGES_HELD = 10_000;

export function createPlayerDirectory(options: {
  pool: Pool;
  maxEntries: number;
  /** The schema of the players table: its notifications come on `<schema>_players`. */
  schema: string;
  /** The listening connection's application_name. */
  listenerName?: string;
  /** The cap on the organization's Live players, for admitting a player new to the month. */
  liveCap: (environment: EnvironmentContext) => number | null;
  log?: { warn(details: object, message: string): void };
}): PlayerDirectory {
  const known = new GroupedLruCache<string, string, KnownPlayer>({ maxEntries: options.maxEntries });
  let listening = false;
  const changes = new RecentChanges<string>({ perGeneration: CHANGES_HELD });
  const waiting: (() => void)[] = [];
  const keyOf = (environmentId: string, externalId: string) => `${environmentId}\u0000${externalId}`;
  const readPlayer = createPlayerReads(options.pool);

  const reset = () => {
    changes.addEverything();
    known.clear();
  };
  const changed = (payload: string) => {
    let environmentId: unknown;
    let externalId: unknown;
    try {
      [environmentId, externalId] = JSON.parse(payload) as unknown[];
    } catch {}
    if (typeof environmentId !== 'string' || typeof externalId !== 'string') {
      reset();
      return;
    }
    changes.add(keyOf(environmentId, externalId));
    known.delete(environmentId, externalId);
  };
  const listener = listenToChannel({
    pool: options.pool,
    channel: `${options.schema}_players`,
    applicationName: options.listenerName ?? `${options.schema}-player-changes`,
    onNotification: changed,
    onListening: () => {
      reset();
      listening = true;
      playerChangesListening.set(1);
      for (const resolve of waiting.splice(0)) resolve();
    },
    onLost: () => {
      listening = false;
      playerChangesListening.set(0);
      playerChangesLost.inc();
      reset();
    },
    ...(options.log ? { log: options.log } : {}),
  });

  const directory: PlayerDirectory = {
    knownOf: (environmentId) => known.groupView(environmentId),
    mark: () => changes.mark(),
    remember(mark, environmentId, externalId, player) {
      if (!listening || changes.changedSince(mark, keyOf(environmentId, externalId))) return;
      known.set(environmentId, externalId, player);
    },
    async resolve(environment, externalId) {
      const month = currentMonth();
      const { environmentId } = environment;
      const cached = known.get(environmentId, externalId);
      if (cached?.activeMonth === month && cached.attributes !== undefined) {
        playerResolutions.inc({ outcome: 'known' });
        return { id: externalId, timeZone: cached.timeZone, attributes: cached.attributes, isNew: false };
      }
      // Taken before the read that serves this request is issued (it may wait for the one running).
      const mark = changes.mark();
      const stored = await readPlayer({ environmentId, externalId, month });
      const admission = stored?.active !== true;
      playerResolutions.inc({ outcome: admission ? 'admission' : 'read' });
      const player: PlayerContext = admission
        ? await admitAndUpsertOne(options.pool, environment, options.liveCap(environment), month, externalId)
        : { id: externalId, timeZone: stored.timeZone, attributes: stored.attributes, isNew: false };
      directory.remember(mark, environmentId, externalId, {
        timeZone: player.timeZone,
        attributes: player.attributes,
        activeMonth: month,
      });
      return player;
    },
    whenListening: (when) =>
      listening && !when?.next ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve)),
    close: () => listener.stop(),
  };
  return directory;
}

async function admitAndUpsertOne(
  pool: Pool,
  environment: EnvironmentContext,
  liveCap: number | null,
  month: string,
  externalId: string,
): Promise<PlayerContext> {
  try {
    const record = await withTransaction(pool, async (client) => {
      const refused = await admitPlayers(client, environment, liveCap, month, [externalId]);
      const code = refused.get(externalId);
      if (code) throw quotaProblem(code);
      const records = await upsertPlayers(client, environment.environmentId, [
        { externalId, timeZone: null },
      ]);
      return records.get(externalId)!;
    });
    return { id: externalId, timeZone: record.timeZone, attributes: record.attributes, isNew: record.isNew };
  } catch (err) {
    if (err instanceof TransactionRetriesExhausted) throw unexpectedProblem();
    throw err;
  }
}

export const quotaMessage = (code: QuotaCode) => PROBLEMS[code].detail;
export const quotaProblem = (code: QuotaCode) => problem(code);

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
  if (!fitsCharacters(value, MAX_PLAYER_ID_LENGTH)) {
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
