import type { Pool, PoolClient } from '@engage/postgres';
import type { PlayerMissions } from '../domain/missions.ts';
import type { StreakState } from '../domain/streaks.ts';
import { decodeMissions, encodeMissionsJson } from './progress-codec.ts';

export interface PlayerRef {
  environmentId: string;
  playerId: string;
}

export interface PlayerProgress extends PlayerRef {
  missions: PlayerMissions;
  streaks: Record<string, StreakState>;
}

export interface ProgressRow {
  environment_id: string;
  player_id: string;
  revision: string;
  missions: Parameters<typeof decodeMissions>[0];
  streaks: Record<string, StreakState>;
}

export const keyOf = (p: PlayerRef) => `${p.environmentId}:${p.playerId}`;

export const toProgress = (r: ProgressRow): PlayerProgress => ({
  environmentId: r.environment_id,
  playerId: r.player_id,
  missions: decodeMissions(r.missions),
  streaks: r.streaks,
});

/**
 * Decoded rows by player with the revision they were read or written at, least recently used
 * first. Entries are never mutated (the fold returns new objects), so a hit is safe to reuse.
 */
export class ProgressCache {
  private readonly rows = new Map<string, { revision: string; progress: PlayerProgress }>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Whether the player's row was seen (rows are never deleted, but a creation can roll back). */
  has(ref: PlayerRef): boolean {
    return this.rows.has(keyOf(ref));
  }

  get(ref: PlayerRef, revision: string): PlayerProgress | undefined {
    const key = keyOf(ref);
    const hit = this.rows.get(key);
    if (!hit || hit.revision !== revision) return undefined;
    this.rows.delete(key);
    this.rows.set(key, hit);
    return hit.progress;
  }

  set(progress: PlayerProgress, revision: string): void {
    const key = keyOf(progress);
    this.rows.delete(key);
    this.rows.set(key, { revision, progress });
    if (this.rows.size > this.capacity) this.rows.delete(this.rows.keys().next().value!);
  }
}

/**
 * Creates the missing rows of the given players and locks all of them, in key order (a read that
 * enters missions; the consumer locks through `lockPlayers`). Creating first means a read and the
 * consumer always meet on the same locked row.
 */
export async function lockProgress(client: PoolClient, players: PlayerRef[]): Promise<PlayerProgress[]> {
  if (players.length === 0) return [];
  await createProgressRows(client, players);
  const { rows } = await client.query<ProgressRow>(
    `SELECT environment_id, player_id, revision, missions, streaks FROM player_progress
     WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
     ORDER BY environment_id, player_id
     FOR UPDATE`,
    refParams(players),
  );
  return rows.map(toProgress);
}

/** The given players' rows, unlocked (their locks are held already). */
export async function readProgressRows(client: PoolClient, players: PlayerRef[]): Promise<ProgressRow[]> {
  const { rows } = await client.query<ProgressRow>(
    `SELECT environment_id, player_id, revision, missions, streaks FROM player_progress
     WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
    refParams(players),
  );
  return rows;
}

export const refParams = (players: PlayerRef[]) => [
  players.map((p) => p.environmentId),
  players.map((p) => p.playerId),
];

export async function createProgressRows(client: PoolClient, players: PlayerRef[]): Promise<void> {
  if (players.length === 0) return;
  await client.query(
    `INSERT INTO player_progress (environment_id, player_id)
     SELECT * FROM unnest($1::uuid[], $2::text[]) ORDER BY 1, 2
     ON CONFLICT DO NOTHING`,
    refParams(players),
  );
}

/**
 * Writes the given players' missions and streaks in one statement (their rows exist and are
 * locked), each with a new revision.
 */
export async function saveProgress(client: PoolClient, progress: PlayerProgress[]): Promise<void> {
  if (progress.length === 0) return;
  const revisions = progress.map(() => crypto.randomUUID());
  await client.query(progressUpdate(1), progressParams(progress, revisions));
}

/**
 * The update of the rows in `progressParams` (5 parameters, numbered from `first`), for use in a
 * larger statement. Arrays of documents cost Postgres less than a JSON array of rows to take apart.
 */
export function progressUpdate(first: number): string {
  const $ = (i: number) => `$${first + i}`;
  return `UPDATE player_progress p
     SET missions = u.missions, streaks = u.streaks, revision = u.revision, updated_at = now()
     FROM unnest(${$(0)}::uuid[], ${$(1)}::text[], ${$(2)}::json[], ${$(3)}::json[], ${$(4)}::uuid[])
       AS u(environment_id, player_id, missions, streaks, revision)
     WHERE p.environment_id = u.environment_id AND p.player_id = u.player_id`;
}

export function progressParams(progress: PlayerProgress[], revisions: string[]): unknown[] {
  return [
    progress.map((p) => p.environmentId),
    progress.map((p) => p.playerId),
    progress.map((p) => encodeMissionsJson(p.missions)),
    progress.map((p) => JSON.stringify(p.streaks)),
    revisions,
  ];
}

/** A player's progress without locking (reads that change nothing); empty when they have no row. */
export async function findProgress(db: Pool | PoolClient, player: PlayerRef): Promise<PlayerProgress> {
  return (await findStoredProgress(db, player)) ?? { ...player, missions: {}, streaks: {} };
}

/** A player's stored progress without locking, undefined when they have no row yet. */
export async function findStoredProgress(
  db: Pool | PoolClient,
  player: PlayerRef,
): Promise<PlayerProgress | undefined> {
  const { rows } = await db.query<ProgressRow>(
    'SELECT environment_id, player_id, revision, missions, streaks FROM player_progress WHERE environment_id = $1 AND player_id = $2',
    [player.environmentId, player.playerId],
  );
  const row = rows[0];
  return row ? toProgress(row) : undefined;
}

/**
 * Creates a player's row with the given progress in one statement. False when the row exists (a
 * concurrent request or the consumer created it first): then lock and update it instead.
 */
export async function insertProgress(client: PoolClient, progress: PlayerProgress): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO player_progress (environment_id, player_id, missions, streaks) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [
      progress.environmentId,
      progress.playerId,
      encodeMissionsJson(progress.missions),
      JSON.stringify(progress.streaks),
    ],
  );
  return rowCount === 1;
}
