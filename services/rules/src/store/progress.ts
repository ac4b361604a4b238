import type { Pool, PoolClient } from '@engage/postgres';
import type { PlayerMissions } from '../domain/missions.ts';
import type { StreakState } from '../domain/streaks.ts';

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
  missions: PlayerMissions;
  streaks: Record<string, StreakState>;
}

const toProgress = (r: ProgressRow): PlayerProgress => ({
  environmentId: r.environment_id,
  playerId: r.player_id,
  missions: r.missions,
  streaks: r.streaks,
});

/**
 * Creates the missing rows of the given players and locks all of them, in key order, in two
 * statements. Creating first means a concurrent read that enters a mission and the consumer always
 * meet on the same locked row.
 */
export async function lockProgress(client: PoolClient, players: PlayerRef[]): Promise<PlayerProgress[]> {
  if (players.length === 0) return [];
  const params = [players.map((p) => p.environmentId), players.map((p) => p.playerId)];
  await client.query(
    `INSERT INTO player_progress (environment_id, player_id)
     SELECT * FROM unnest($1::uuid[], $2::text[]) ORDER BY 1, 2
     ON CONFLICT DO NOTHING`,
    params,
  );
  const { rows } = await client.query<ProgressRow>(
    `SELECT environment_id, player_id, missions, streaks FROM player_progress
     WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
     ORDER BY environment_id, player_id
     FOR UPDATE`,
    params,
  );
  return rows.map(toProgress);
}

/** Writes the given players' missions and streaks in one statement (their rows exist and are locked). */
export async function saveProgress(client: PoolClient, progress: PlayerProgress[]): Promise<void> {
  if (progress.length === 0) return;
  await client.query(
    `UPDATE player_progress p SET missions = u.missions, streaks = u.streaks, updated_at = now()
     FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::jsonb[]) AS u(environment_id, player_id, missions, streaks)
     WHERE p.environment_id = u.environment_id AND p.player_id = u.player_id`,
    [
      progress.map((p) => p.environmentId),
      progress.map((p) => p.playerId),
      progress.map((p) => JSON.stringify(p.missions)),
      progress.map((p) => JSON.stringify(p.streaks)),
    ],
  );
}

/** A player's progress without locking (reads that change nothing). */
export async function findProgress(db: Pool | PoolClient, player: PlayerRef): Promise<PlayerProgress> {
  const { rows } = await db.query<ProgressRow>(
    'SELECT environment_id, player_id, missions, streaks FROM player_progress WHERE environment_id = $1 AND player_id = $2',
    [player.environmentId, player.playerId],
  );
  const row = rows[0];
  return row ? toProgress(row) : { ...player, missions: {}, streaks: {} };
}
