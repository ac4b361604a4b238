import { execute, type Pool, type PoolClient, sqlBuilder } from '@engage/postgres';
import type { PlayerActivity } from '../domain/activity.ts';
import type { PlayerMissions } from '../domain/missions.ts';
import type { StreakState } from '../domain/streaks.ts';
import {
  type CounterLayout,
  counterValues,
  decodeMissions,
  encodeEntries,
  type StoredCounters,
  type StoredEntries,
} from './progress-codec.ts';
import type { RulesTables } from './tables.ts';

const db = sqlBuilder<RulesTables>();

export interface PlayerRef {
  environmentId: string;
  playerId: string;
}

export interface PlayerProgress extends PlayerRef {
  missions: PlayerMissions;
  streaks: Record<string, StreakState>;
}

/** A player's progress as stored: with the layout its counters were written in. */
export interface StoredProgress {
  progress: PlayerProgress;
  layout: CounterLayout;
}

/**
 * Storage: `player_counters` holds what moves with every event (objective values, the activity) and
 * a `revision` that every write of the player's progress changes; it is the row every writer locks.
 * `player_progress` holds the entries' rarely changing part and the streaks (absent: none yet).
 */
export interface ProgressRow {
  environment_id: string;
  player_id: string;
  revision: string;
  counters: StoredCounters;
  missions: StoredEntries | null;
  streaks: Record<string, StreakState> | null;
}

export const keyOf = (p: PlayerRef) => `${p.environmentId}:${p.playerId}`;

export function toStoredProgress(r: ProgressRow): StoredProgress {
  const { missions, layout } = decodeMissions(r.missions ?? {}, r.counters);
  return {
    progress: { environmentId: r.environment_id, playerId: r.player_id, missions, streaks: r.streaks ?? {} },
    layout,
  };
}

/**
 * Statements over many players take one array parameter per column, unpacked together by `unnest`
 * (`pg` writes each as an array literal, any player id escaped): Postgres parses typed arrays for
 * far less than a JSON record per player. Each statement names the columns it reads.
 */
const REFS = 'unnest($1::uuid[], $2::text[]) AS b(environment_id, player_id)';

const refsParams = (players: readonly PlayerRef[]) => [
  players.map((p) => p.environmentId),
  players.map((p) => p.playerId),
];

/**
 * A player's `player_counters` row as the consumer reads it: revision, activity and the rules'
 * version; with the player's progress (`stale`) when its revision is not the one the caller holds.
 */
export interface PlayerRow {
  environment_id: string;
  player_id: string;
  revision: string;
  events_applied: number;
  /** ISO text with milliseconds, as the activity keeps it (no Date built and printed per player). */
  last_occurred_at: string | null;
  applied_events_digest: string;
  rules_version: number | null;
  /** Whether the progress columns were read (the caller's revision was not the row's). */
  stale: boolean;
  counters: StoredCounters | null;
  missions: StoredEntries | null;
  streaks: Record<string, StreakState> | null;
}

/** The progress a stale `PlayerRow` carries. */
export const progressOf = (row: PlayerRow): StoredProgress =>
  toStoredProgress({ ...row, counters: row.counters ?? [] });

const PLAYERS = 'unnest($1::uuid[], $2::text[], $3::uuid[]) AS b(environment_id, player_id, revision)';
const STALE = '(b.revision IS NULL OR c.revision <> b.revision)';

/**
 * The rows of the given players, with the progress of those not at the caller's revision. The
 * progress row is looked up in a subquery kept apart (`OFFSET 0`), where the staleness test, which
 * names none of its own columns, gates the lookup: a fresh player's progress row is not even
 * visited (a join condition would fetch it, then drop it).
 */
const READ_PLAYERS = `SELECT c.environment_id, c.player_id, c.revision, c.events_applied,
       to_char(c.last_occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_occurred_at,
       c.applied_events_digest, v.version AS rules_version, ${STALE} AS stale,
       CASE WHEN ${STALE} THEN c.counters END AS counters, p.missions, p.streaks
     FROM ${PLAYERS}
     JOIN player_counters c ON c.environment_id = b.environment_id AND c.player_id = b.player_id
     LEFT JOIN definition_versions v ON v.environment_id = c.environment_id
     LEFT JOIN LATERAL (
       SELECT p.missions, p.streaks FROM player_progress p
       WHERE ${STALE} AND p.environment_id = c.environment_id AND p.player_id = c.player_id
       OFFSET 0
     ) p ON true`;

/** Locks the players' existing rows in key order; what it answers is not used. */
const LOCK_ROWS = `SELECT c.player_id
     FROM player_counters c
     WHERE (c.environment_id, c.player_id) IN (SELECT environment_id, player_id FROM ${REFS})
     ORDER BY c.environment_id, c.player_id
     FOR UPDATE OF c`;

const FULL_ROW = `SELECT c.environment_id, c.player_id, c.revision, c.counters, p.missions, p.streaks
     FROM player_counters c
     LEFT JOIN player_progress p ON p.environment_id = c.environment_id AND p.player_id = c.player_id`;

/** A player to read, with the revision of the progress the caller already holds (null: none). */
export interface PlayerToRead extends PlayerRef {
  knownRevision: string | null;
}

const playersParams = (players: readonly PlayerToRead[]) => [
  ...refsParams(players),
  players.map((p) => p.knownRevision),
];

/**
 * The players' rows as they stand, without locking them (one statement, one snapshot): the
 * consumer's writes are conditional on the revision and activity read here (`writePlayers`).
 * Players without a row are missing from the answer.
 */
export async function readPlayers(
  client: PoolClient,
  players: readonly PlayerToRead[],
): Promise<PlayerRow[]> {
  if (players.length === 0) return [];
  const { rows } = await client.query<PlayerRow>({
    name: 'rules-read-players',
    text: READ_PLAYERS,
    values: playersParams(players),
  });
  return rows;
}

/**
 * Locks the players' existing rows in key order and reads them as `readPlayers` does. The read is
 * a statement of its own, sent with the lock (one round trip on a pipelining pool) and run after
 * it, so it sees what a writer that held a lock before committed. Players without a row are
 * missing from the answer.
 */
export async function lockPlayers(
  client: PoolClient,
  players: readonly PlayerToRead[],
): Promise<PlayerRow[]> {
  if (players.length === 0) return [];
  const [, read] = await Promise.all([
    client.query({ name: 'rules-lock-players', text: LOCK_ROWS, values: refsParams(players) }),
    client.query<PlayerRow>({
      name: 'rules-read-players',
      text: READ_PLAYERS,
      values: playersParams(players),
    }),
  ]);
  return read.rows;
}

/** Creates the players' lock rows (`player_counters`) that do not exist yet. */
export async function createPlayerRows(client: PoolClient, players: readonly PlayerRef[]): Promise<void> {
  if (players.length === 0) return;
  await client.query({
    name: 'rules-create-players',
    text: `INSERT INTO player_counters (environment_id, player_id)
       SELECT environment_id, player_id FROM ${REFS} ORDER BY 1, 2
       ON CONFLICT DO NOTHING`,
    values: refsParams(players),
  });
}

/**
 * Creates the missing rows of the given players and locks all of them, in key order (a read that
 * enters missions or accepts one). Creating first means a read and the consumer always meet on the
 * same locked row.
 */
export async function lockProgress(client: PoolClient, players: PlayerRef[]): Promise<PlayerProgress[]> {
  if (players.length === 0) return [];
  await createPlayerRows(client, players);
  const rows = await lockPlayers(
    client,
    players.map((p) => ({ ...p, knownRevision: null })),
  );
  return rows.map((row) => progressOf(row).progress);
}

/** What one player's write changes: the counters always, entries and streaks when they changed. */
export interface ProgressWrite {
  stored: StoredProgress;
  /** The objective values by slot of `stored.layout`. */
  counters: StoredCounters;
  /** The entries' JSON text and the streaks; absent when only counters moved. */
  entries?: { missions: string; streaks: Record<string, StreakState> };
}

/**
 * The write that takes a player from `before` to `after`: only the counters when nothing but
 * objective values moved (`factsChanged` false: `after` is `before`'s own progress folded in place,
 * with the same progress objects at the same slots), else everything with the counters laid out
 * anew.
 */
export function progressWrite(
  before: StoredProgress | undefined,
  after: PlayerProgress,
  factsChanged = true,
): ProgressWrite {
  if (before && !factsChanged) return { stored: before, counters: counterValues(before.layout) };
  const { json, layout } = encodeEntries(after.missions);
  return {
    stored: { progress: after, layout },
    counters: counterValues(layout),
    entries: { missions: json, streaks: after.streaks },
  };
}

/** One player's row as a batch writes it: the activity always, progress when it moved. */
export interface PlayerRowWrite {
  player: PlayerRef;
  activity: PlayerActivity | undefined;
  progress: ProgressWrite | undefined;
  /** The new revision when progress moved. */
  revision: string | undefined;
  /**
   * The revision and events applied the write was computed from: the row is written only if it
   * still holds them (absent: the caller holds the row's lock).
   */
  expected?: { revision: string; eventsApplied: number } | undefined;
}

/** `writePlayers`' statement: a column's NULL leaves what the row holds (see there). */
const WRITE_PLAYERS = `WITH u AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::bigint[], $6::uuid[],
         $7::bigint[], $8::timestamptz[], $9::text[], $10::text[], $11::text[], $12::uuid[], $13::bigint[])
       AS u(environment_id, player_id, counters, revision, events_applied, last_event_id, last_offset,
         last_occurred_at, applied_events_digest, missions, streaks, expected_revision, expected_events_applied)
     ), counters AS (
       UPDATE player_counters c SET
         counters = coalesce(u.counters::json, c.counters), revision = coalesce(u.revision, c.revision),
         events_applied = coalesce(u.events_applied, c.events_applied),
         last_event_id = coalesce(u.last_event_id, c.last_event_id),
         last_offset = coalesce(u.last_offset, c.last_offset),
         last_occurred_at = coalesce(u.last_occurred_at, c.last_occurred_at),
         applied_events_digest = coalesce(u.applied_events_digest, c.applied_events_digest),
         updated_at = CASE WHEN u.events_applied IS NULL THEN c.updated_at ELSE now() END
       FROM u WHERE c.environment_id = u.environment_id AND c.player_id = u.player_id
         AND (u.expected_revision IS NULL
           OR (c.revision = u.expected_revision AND c.events_applied = u.expected_events_applied))
       RETURNING c.environment_id, c.player_id
     ), entries AS (
       INSERT INTO player_progress (environment_id, player_id, missions, streaks)
       SELECT u.environment_id, u.player_id, u.missions::json, u.streaks::json
       FROM u JOIN counters w ON w.environment_id = u.environment_id AND w.player_id = u.player_id
       WHERE u.missions IS NOT NULL
       ON CONFLICT (environment_id, player_id) DO UPDATE
         SET missions = EXCLUDED.missions, streaks = EXCLUDED.streaks, updated_at = now()
     )
     SELECT environment_id, player_id FROM counters`;

/**
 * Writes players' rows in one statement: each `player_counters` row gets its new activity (when
 * given) and, when progress moved, its counters and the new revision; entries and streaks are
 * upserted only for the writes that carry them. A write with `expected` is skipped when the row
 * moved since (another writer committed meanwhile; a writer holding the row's lock is waited for).
 * Answers the players written.
 */
export async function writePlayers(
  client: PoolClient,
  writes: readonly PlayerRowWrite[],
): Promise<{ environment_id: string; player_id: string }[]> {
  if (writes.length === 0) return [];
  const { rows: written } = await client.query<{ environment_id: string; player_id: string }>({
    name: 'rules-write-players',
    text: WRITE_PLAYERS,
    values: [
      ...refsParams(writes.map((w) => w.player)),
      writes.map((w) => w.progress && JSON.stringify(w.progress.counters)),
      writes.map((w) => w.revision),
      writes.map((w) => w.activity?.eventsApplied),
      writes.map((w) => w.activity?.lastEventId),
      writes.map((w) => w.activity?.lastOffset),
      writes.map((w) => w.activity?.lastOccurredAt),
      writes.map((w) => w.activity?.appliedEventsDigest),
      writes.map((w) => w.progress?.entries?.missions),
      writes.map((w) => w.progress?.entries && JSON.stringify(w.progress.entries.streaks)),
      writes.map((w) => w.expected?.revision),
      writes.map((w) => w.expected?.eventsApplied),
    ],
  });
  return written;
}

/** Writes the given players' whole progress (their lock rows exist and are locked), each with a new revision. */
export async function saveProgress(client: PoolClient, progress: PlayerProgress[]): Promise<void> {
  await writePlayers(
    client,
    progress.map((p) => ({
      player: p,
      activity: undefined,
      progress: progressWrite(undefined, p),
      revision: crypto.randomUUID(),
    })),
  );
}

/** A player's progress without locking (reads that change nothing); empty when they have no row. */
export async function findProgress(
  connection: Pool | PoolClient,
  player: PlayerRef,
): Promise<PlayerProgress> {
  const { rows } = await connection.query<ProgressRow>({
    name: 'rules-find-progress',
    text: `${FULL_ROW} WHERE c.environment_id = $1 AND c.player_id = $2`,
    values: [player.environmentId, player.playerId],
  });
  const row = rows[0];
  return row ? toStoredProgress(row).progress : { ...player, missions: {}, streaks: {} };
}

/**
 * What a read needs, in one statement: the player's stored progress (undefined when they have no
 * row yet) and the environment's definition version (null when nothing was ever defined), for
 * `RulesCache.atVersion`.
 */
export async function findProgressAndRulesVersion(
  connection: Pool | PoolClient,
  player: PlayerRef,
): Promise<{ stored: PlayerProgress | undefined; rulesVersion: number | null }> {
  const { rows } = await connection.query<ProgressRow & { rules_version: number | null }>({
    name: 'rules-find-progress-and-version',
    text: `SELECT (SELECT version FROM definition_versions WHERE environment_id = $1) AS rules_version,
       c.environment_id, c.player_id, c.revision, c.counters, p.missions, p.streaks
     FROM (VALUES (1)) AS one
     LEFT JOIN player_counters c ON c.environment_id = $1 AND c.player_id = $2
     LEFT JOIN player_progress p ON p.environment_id = c.environment_id AND p.player_id = c.player_id`,
    values: [player.environmentId, player.playerId],
  });
  const row = rows[0]!;
  return {
    stored: row.environment_id === null ? undefined : toStoredProgress(row).progress,
    rulesVersion: row.rules_version,
  };
}

/**
 * Creates a player's rows with the given progress. False when the player's lock row exists (a
 * concurrent request or the consumer created it first): then lock and update instead.
 */
export async function insertProgress(client: PoolClient, progress: PlayerProgress): Promise<boolean> {
  const write = progressWrite(undefined, progress);
  const created = await execute(
    client,
    db
      .with('created', (q) =>
        q
          .insertInto('player_counters')
          .values({
            environment_id: progress.environmentId,
            player_id: progress.playerId,
            counters: JSON.stringify(write.counters),
          })
          .onConflict((oc) => oc.doNothing())
          .returning(['environment_id', 'player_id']),
      )
      .insertInto('player_progress')
      .columns(['environment_id', 'player_id', 'missions', 'streaks'])
      .expression((eb) =>
        eb
          .selectFrom('created')
          .select([
            'environment_id',
            'player_id',
            eb.cast<string>(eb.val(write.entries!.missions), 'json').as('missions'),
            eb.cast<string>(eb.val(JSON.stringify(write.entries!.streaks)), 'json').as('streaks'),
          ]),
      )
      .returning('player_id'),
  );
  return created.length > 0;
}
