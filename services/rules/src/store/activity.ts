import type { Pool } from '@engage/postgres';
import type { PlayerActivity } from '../domain/activity.ts';
import { plainArray } from './array-literals.ts';

export interface PlayerRef {
  environmentId: string;
  playerId: string;
}

export interface ActivityRow {
  environment_id: string;
  player_id: string;
  events_applied: number;
  last_event_id: string;
  last_offset: number;
  last_occurred_at: Date;
  applied_events_digest: string;
  updated_at: Date;
}

const COLUMNS = `environment_id, player_id, events_applied, last_event_id, last_offset, last_occurred_at,
  applied_events_digest, updated_at`;

/**
 * The activity is kept in the player's `player_counters` row beside the objective values, so the
 * consumer writes both with one row update. A row without applied events (created by a read) has
 * no activity yet.
 */
export function activityParams(activities: PlayerActivity[]): string[] {
  return [
    plainArray(activities.map((a) => a.eventsApplied)),
    plainArray(activities.map((a) => a.lastEventId)),
    plainArray(activities.map((a) => a.lastOffset)),
    plainArray(activities.map((a) => a.lastOccurredAt)),
    plainArray(activities.map((a) => a.appliedEventsDigest)),
  ];
}

export interface StoredActivity extends PlayerActivity {
  updatedAt: string;
}

export async function findActivity(pool: Pool, player: PlayerRef): Promise<StoredActivity | undefined> {
  const { rows } = await pool.query<ActivityRow>(
    `SELECT ${COLUMNS} FROM player_counters WHERE environment_id = $1 AND player_id = $2 AND events_applied > 0`,
    [player.environmentId, player.playerId],
  );
  const row = rows[0];
  return row ? { ...toActivity(row), updatedAt: row.updated_at.toISOString() } : undefined;
}

function toActivity(row: ActivityRow): PlayerActivity {
  return {
    environmentId: row.environment_id,
    playerId: row.player_id,
    eventsApplied: row.events_applied,
    lastEventId: row.last_event_id,
    lastOffset: String(row.last_offset),
    lastOccurredAt: row.last_occurred_at.toISOString(),
    appliedEventsDigest: row.applied_events_digest,
  };
}
