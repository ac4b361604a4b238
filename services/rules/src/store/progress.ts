import type { Pool, PoolClient } from '@engage/postgres';
import type { PlayerMissions } from '../domain/missions.ts';
import type { StreakState } from '../domain/streaks.ts';
import { plainArray, textArray } from './array-literals.ts';
import {
  type CounterLayout,
  decodeMissions,
  encodeCounters,
  encodeEntries,
  type StoredCounters,
  type StoredEntries,
} from './progress-codec.ts';

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
 * a `revision` that every write of the player changes; it is the row every writer locks.
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
 * Decoded rows by player key (`keyOf`) with the revision they were read or written at, least
 * recently used first. The consumer takes a player out (`take`) while its transaction folds the
 * state in place and puts it back with the revision it wrote; a rollback leaves the player out, to
 * be read again. Keyed by the caller's key string, so a batch builds each player's key once.
 */
export class ProgressCache {
  private readonly rows = new Map<string, { revision: string; stored: StoredProgress }>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Whether the player's row was seen (rows are never deleted, but a creation can roll back). */
  has(key: string): boolean {
    return this.rows.has(key);
  }

  /** The player's state if cached at `revision`, removed from the cache: the caller owns it now. */
  take(key: string, revision: string): StoredProgress | undefined {
    const hit = this.rows.get(key);
    if (!hit || hit.revision !== revision) return undefined;
    this.rows.delete(key);
    return hit.stored;
  }

  set(key: string, stored: StoredProgress, revision: string): void {
    this.rows.delete(key);
    this.rows.set(key, { revision, stored });
    if (this.rows.size > this.capacity) this.rows.delete(this.rows.keys().next().value!);
  }
}

const FULL_ROW = `SELECT c.environment_id, c.player_id, c.revision, c.counters, p.missions, p.streaks
     FROM player_counters c
     LEFT JOIN player_progress p ON p.environment_id = c.environment_id AND p.player_id = c.player_id`;

/**
 * Creates the missing rows of the given players and locks all of them, in key order (a read that
 * enters missions; the consumer locks through `lockPlayers`). Creating first means a read and the
 * consumer always meet on the same locked row.
 */
export async function lockProgress(client: PoolClient, players: PlayerRef[]): Promise<PlayerProgress[]> {
  if (players.length === 0) return [];
  await createPlayerRows(client, players);
  await client.query(
    `SELECT 1 FROM player_counters
     WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
     ORDER BY environment_id, player_id
     FOR UPDATE`,
    refParams(players),
  );
  return (await readProgressRows(client, players)).map((row) => toStoredProgress(row).progress);
}

/** The given players' rows, unlocked (their locks are held already). */
export async function readProgressRows(client: PoolClient, players: PlayerRef[]): Promise<ProgressRow[]> {
  const { rows } = await client.query<ProgressRow>(
    `${FULL_ROW}
     WHERE (c.environment_id, c.player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
    refParams(players),
  );
  return rows;
}

export const refParams = (players: PlayerRef[]) => [
  plainArray(players.map((p) => p.environmentId)),
  textArray(players.map((p) => p.playerId)),
];

/** Creates the players' lock rows (`player_counters`) that do not exist yet. */
export async function createPlayerRows(client: PoolClient, players: PlayerRef[]): Promise<void> {
  if (players.length === 0) return;
  await client.query(
    `INSERT INTO player_counters (environment_id, player_id)
     SELECT * FROM unnest($1::uuid[], $2::text[]) ORDER BY 1, 2
     ON CONFLICT DO NOTHING`,
    refParams(players),
  );
}

/** What one player's write changes: the counters always, entries and streaks when they changed. */
export interface ProgressWrite {
  stored: StoredProgress;
  counters: string;
  /** The entries' and streaks' JSON texts; absent when only counters moved. */
  entries?: { missions: string; streaks: string };
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
  if (before && !factsChanged) return { stored: before, counters: encodeCounters(before.layout) };
  const { json, layout } = encodeEntries(after.missions);
  return {
    stored: { progress: after, layout },
    counters: encodeCounters(layout),
    entries: { missions: json, streaks: JSON.stringify(after.streaks) },
  };
}

/**
 * Writes the given players' whole progress in one statement (their lock rows exist and are
 * locked), each with a new revision (reads that enter or accept missions).
 */
export async function saveProgress(client: PoolClient, progress: PlayerProgress[]): Promise<void> {
  if (progress.length === 0) return;
  const writes = progress.map((p) => progressWrite(undefined, p));
  const revisions = progress.map(() => crypto.randomUUID());
  await client.query(`WITH counters AS (${countersUpdate(1)}), entries AS (${entriesUpsert(5)}) SELECT 1`, [
    ...countersParams(writes, revisions),
    ...entriesParams(writes),
  ]);
}

/** The update of the lock rows in `countersParams` (4 parameters from `first`), for a larger statement. */
function countersUpdate(first: number): string {
  const $ = (i: number) => `$${first + i}`;
  return `UPDATE player_counters c SET counters = u.counters, revision = u.revision
     FROM unnest(${$(0)}::uuid[], ${$(1)}::text[], ${$(2)}::json[], ${$(3)}::uuid[])
       AS u(environment_id, player_id, counters, revision)
     WHERE c.environment_id = u.environment_id AND c.player_id = u.player_id`;
}

function countersParams(writes: ProgressWrite[], revisions: string[]): unknown[] {
  return [
    writes.map((w) => w.stored.progress.environmentId),
    writes.map((w) => w.stored.progress.playerId),
    writes.map((w) => w.counters),
    revisions,
  ];
}

/**
 * The upsert of the entries and streaks of the writes that carry them (`entriesParams`, 4
 * parameters from `first`), for use in a larger statement.
 */
export function entriesUpsert(first: number): string {
  const $ = (i: number) => `$${first + i}`;
  return `INSERT INTO player_progress (environment_id, player_id, missions, streaks)
     SELECT * FROM unnest(${$(0)}::uuid[], ${$(1)}::text[], ${$(2)}::json[], ${$(3)}::json[])
     ON CONFLICT (environment_id, player_id) DO UPDATE
       SET missions = EXCLUDED.missions, streaks = EXCLUDED.streaks, updated_at = now()`;
}

export function entriesParams(writes: ProgressWrite[]): unknown[] {
  const full = writes.filter((w) => w.entries);
  return [
    full.map((w) => w.stored.progress.environmentId),
    full.map((w) => w.stored.progress.playerId),
    full.map((w) => w.entries!.missions),
    full.map((w) => w.entries!.streaks),
  ];
}

/** A player's progress without locking (reads that change nothing); empty when they have no row. */
export async function findProgress(db: Pool | PoolClient, player: PlayerRef): Promise<PlayerProgress> {
  const { rows } = await db.query<ProgressRow>(
    `${FULL_ROW} WHERE c.environment_id = $1 AND c.player_id = $2`,
    [player.environmentId, player.playerId],
  );
  const row = rows[0];
  return row ? toStoredProgress(row).progress : { ...player, missions: {}, streaks: {} };
}

/**
 * What a read needs, in one statement: the player's stored progress (undefined when they have no
 * row yet) and the environment's definition version (null when nothing was ever defined), for
 * `RulesCache.atVersion`.
 */
export async function findProgressAndRulesVersion(
  db: Pool | PoolClient,
  player: PlayerRef,
): Promise<{ stored: PlayerProgress | undefined; rulesVersion: string | null }> {
  const { rows } = await db.query<ProgressRow & { rules_version: string | null }>(
    `SELECT (SELECT version FROM definition_versions WHERE environment_id = $1) AS rules_version,
       c.environment_id, c.player_id, c.revision, c.counters, p.missions, p.streaks
     FROM (VALUES (1)) AS one
     LEFT JOIN player_counters c ON c.environment_id = $1 AND c.player_id = $2
     LEFT JOIN player_progress p ON p.environment_id = c.environment_id AND p.player_id = c.player_id`,
    [player.environmentId, player.playerId],
  );
  const row = rows[0]!;
  return {
    stored: row.environment_id === null ? undefined : toStoredProgress(row).progress,
    rulesVersion: row.rules_version,
  };
}

/**
 * Creates a player's rows with the given progress in one statement. False when the player's lock
 * row exists (a concurrent request or the consumer created it first): then lock and update instead.
 */
export async function insertProgress(client: PoolClient, progress: PlayerProgress): Promise<boolean> {
  const write = progressWrite(undefined, progress);
  const { rows } = await client.query<{ created: boolean }>(
    `WITH created AS (
       INSERT INTO player_counters (environment_id, player_id, counters) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING 1
     ), entries AS (
       INSERT INTO player_progress (environment_id, player_id, missions, streaks)
       SELECT $1, $2, $4, $5 WHERE EXISTS (SELECT FROM created)
     )
     SELECT EXISTS (SELECT FROM created) AS created`,
    [
      progress.environmentId,
      progress.playerId,
      write.counters,
      write.entries!.missions,
      write.entries!.streaks,
    ],
  );
  return rows[0]!.created;
}
