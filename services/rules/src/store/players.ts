import type { PoolClient } from '@engage/postgres';
import type { PlayerActivity } from '../domain/activity.ts';
import { type ActivityRow, activityParams, activityUpsert, toActivity } from './activity.ts';
import {
  createProgressRows,
  keyOf,
  type PlayerProgress,
  type PlayerRef,
  type ProgressCache,
  progressParams,
  progressUpdate,
  readProgressRows,
  refParams,
  toProgress,
} from './progress.ts';

/** What the consumer holds of one player during a batch. */
export interface LockedPlayer {
  progress: PlayerProgress;
  /** Absent for a player never seen before. */
  activity: PlayerActivity | undefined;
}

type LockRow = { revision: string } & Partial<ActivityRow> &
  Pick<ActivityRow, 'environment_id' | 'player_id'>;

/**
 * Locks the progress rows of the batch's players (in key order) and reads their activity in the
 * same statement. Players the cache does not hold have their row created first; a player it holds
 * whose row is missing (the transaction that created it rolled back) is created when the lock
 * misses it. Only rows whose revision moved since they were cached are read in full. So a batch of
 * known players costs one statement here.
 */
export async function lockPlayers(
  client: PoolClient,
  players: PlayerRef[],
  cache: ProgressCache,
): Promise<LockedPlayer[]> {
  if (players.length === 0) return [];
  await createProgressRows(
    client,
    players.filter((p) => !cache.has(p)),
  );
  let locked = await lockWithActivity(client, players);
  if (locked.length < players.length) {
    const found = new Set(locked.map((row) => keyOf(refOf(row))));
    const missing = players.filter((p) => !found.has(keyOf(p)));
    await createProgressRows(client, missing);
    locked = locked.concat(await lockWithActivity(client, missing));
  }
  const progress = new Map<string, PlayerProgress>();
  const misses: PlayerRef[] = [];
  for (const row of locked) {
    const ref = refOf(row);
    const hit = cache.get(ref, row.revision);
    if (hit) progress.set(keyOf(ref), hit);
    else misses.push(ref);
  }
  for (const row of misses.length > 0 ? await readProgressRows(client, misses) : []) {
    const read = toProgress(row);
    cache.set(read, row.revision);
    progress.set(keyOf(read), read);
  }
  return locked.map((row) => ({
    progress: progress.get(keyOf(refOf(row)))!,
    activity: row.events_applied == null ? undefined : toActivity(row as ActivityRow),
  }));
}

const refOf = (row: LockRow): PlayerRef => ({ environmentId: row.environment_id, playerId: row.player_id });

async function lockWithActivity(client: PoolClient, players: PlayerRef[]): Promise<LockRow[]> {
  const { rows } = await client.query<LockRow>(
    `WITH locked AS (
       SELECT environment_id, player_id, revision FROM player_progress
       WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
       ORDER BY environment_id, player_id
       FOR UPDATE
     )
     SELECT l.environment_id, l.player_id, l.revision, a.*
     FROM locked l LEFT JOIN LATERAL (
       -- One primary-key lookup per locked row: the planner cannot size the CTE and, were this
       -- subquery flattened (LIMIT prevents it), would hash the whole table instead.
       SELECT events_applied, last_event_id, last_offset, last_occurred_at, applied_events_digest
       FROM player_activity
       WHERE environment_id = l.environment_id AND player_id = l.player_id
       LIMIT 1
     ) a ON true`,
    refParams(players),
  );
  return rows;
}

/**
 * Writes the batch's new activity and changed progress in one statement; each progress row gets a
 * new revision, which the cache learns (should the transaction roll back, those revisions never
 * appear in the table and the next lock misses).
 */
export async function savePlayers(
  client: PoolClient,
  activities: PlayerActivity[],
  progress: PlayerProgress[],
  cache: ProgressCache,
): Promise<void> {
  const revisions = progress.map(() => crypto.randomUUID());
  if (activities.length > 0 && progress.length > 0) {
    await client.query(
      `WITH activity AS (${activityUpsert(1)}), progress AS (${progressUpdate(8)}) SELECT 1`,
      [...activityParams(activities), ...progressParams(progress, revisions)],
    );
  } else if (activities.length > 0) {
    await client.query(activityUpsert(1), activityParams(activities));
  } else if (progress.length > 0) {
    await client.query(progressUpdate(1), progressParams(progress, revisions));
  }
  progress.forEach((p, i) => {
    cache.set(p, revisions[i]!);
  });
}
