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

interface ProgressRow {
  environment_id: string;
  player_id: string;
  revision: string;
  missions: Parameters<typeof decodeMissions>[0];
  streaks: Record<string, StreakState>;
}

const keyOf = (p: PlayerRef) => `${p.environmentId}:${p.playerId}`;

const toProgress = (r: ProgressRow): PlayerProgress => ({
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

  /** Whether the player's row is known to exist (rows are never deleted). */
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
 * Creates the missing rows of the given players and locks all of them, in key order. Creating first
 * means a concurrent read that enters a mission and the consumer always meet on the same locked
 * row. With a cache, only rows whose revision moved since they were cached are read in full, and
 * only players it does not hold have their row created up front (a player it holds whose row is
 * missing, because the transaction that created it rolled back, is created when the lock misses it).
 */
export async function lockProgress(
  client: PoolClient,
  players: PlayerRef[],
  cache?: ProgressCache,
): Promise<PlayerProgress[]> {
  if (players.length === 0) return [];
  if (!cache) {
    await createRows(client, players);
    const { rows } = await client.query<ProgressRow>(
      `SELECT environment_id, player_id, revision, missions, streaks FROM player_progress
       WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
       ORDER BY environment_id, player_id
       FOR UPDATE`,
      refParams(players),
    );
    return rows.map(toProgress);
  }
  await createRows(
    client,
    players.filter((p) => !cache.has(p)),
  );
  let locked = await lockRevisions(client, players);
  if (locked.length < players.length) {
    const found = new Set(locked.map((row) => keyOf(refOf(row))));
    const missing = players.filter((p) => !found.has(keyOf(p)));
    await createRows(client, missing);
    locked = locked.concat(await lockRevisions(client, missing));
  }
  const result: PlayerProgress[] = [];
  const misses: PlayerRef[] = [];
  for (const row of locked) {
    const ref = refOf(row);
    const hit = cache.get(ref, row.revision);
    if (hit) result.push(hit);
    else misses.push(ref);
  }
  if (misses.length > 0) {
    const { rows } = await client.query<ProgressRow>(
      `SELECT environment_id, player_id, revision, missions, streaks FROM player_progress
       WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))`,
      refParams(misses),
    );
    for (const row of rows) {
      const progress = toProgress(row);
      cache.set(progress, row.revision);
      result.push(progress);
    }
  }
  return result;
}

type RevisionRow = Pick<ProgressRow, 'environment_id' | 'player_id' | 'revision'>;

const refParams = (players: PlayerRef[]) => [
  players.map((p) => p.environmentId),
  players.map((p) => p.playerId),
];

const refOf = (row: RevisionRow): PlayerRef => ({
  environmentId: row.environment_id,
  playerId: row.player_id,
});

async function createRows(client: PoolClient, players: PlayerRef[]): Promise<void> {
  if (players.length === 0) return;
  await client.query(
    `INSERT INTO player_progress (environment_id, player_id)
     SELECT * FROM unnest($1::uuid[], $2::text[]) ORDER BY 1, 2
     ON CONFLICT DO NOTHING`,
    refParams(players),
  );
}

async function lockRevisions(client: PoolClient, players: PlayerRef[]): Promise<RevisionRow[]> {
  const { rows } = await client.query<RevisionRow>(
    `SELECT environment_id, player_id, revision FROM player_progress
     WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
     ORDER BY environment_id, player_id
     FOR UPDATE`,
    refParams(players),
  );
  return rows;
}

/**
 * Writes the given players' missions and streaks in one statement (their rows exist and are
 * locked), each with a new revision. The rows travel as one JSON array (no per-value array
 * escaping). A cache learns the written rows: should the transaction roll back, their revisions
 * never appear in the table and the next read misses.
 */
export async function saveProgress(
  client: PoolClient,
  progress: PlayerProgress[],
  cache?: ProgressCache,
): Promise<void> {
  if (progress.length === 0) return;
  const revisions = progress.map(() => crypto.randomUUID());
  const rows = progress.map(
    (p, i) =>
      `{"environment_id":${JSON.stringify(p.environmentId)},"player_id":${JSON.stringify(p.playerId)},` +
      `"revision":"${revisions[i]}","missions":${encodeMissionsJson(p.missions)},` +
      `"streaks":${JSON.stringify(p.streaks)}}`,
  );
  await client.query(
    `UPDATE player_progress p
     SET missions = u.missions, streaks = u.streaks, revision = u.revision, updated_at = now()
     FROM json_to_recordset($1::json)
       AS u(environment_id uuid, player_id text, missions json, streaks json, revision uuid)
     WHERE p.environment_id = u.environment_id AND p.player_id = u.player_id`,
    [`[${rows.join(',')}]`],
  );
  if (cache) {
    progress.forEach((p, i) => {
      cache.set(p, revisions[i]!);
    });
  }
}

/** A player's progress without locking (reads that change nothing). */
export async function findProgress(db: Pool | PoolClient, player: PlayerRef): Promise<PlayerProgress> {
  const { rows } = await db.query<ProgressRow>(
    'SELECT environment_id, player_id, revision, missions, streaks FROM player_progress WHERE environment_id = $1 AND player_id = $2',
    [player.environmentId, player.playerId],
  );
  const row = rows[0];
  return row ? toProgress(row) : { ...player, missions: {}, streaks: {} };
}
