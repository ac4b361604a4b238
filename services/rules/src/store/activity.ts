import { execute, type Pool, sqlBuilder } from '@engage/postgres';
import type { PlayerActivity } from '../domain/activity.ts';
import type { PlayerRef } from './progress.ts';
import type { RulesTables } from './tables.ts';

const db = sqlBuilder<RulesTables>();

export interface StoredActivity extends PlayerActivity {
  updatedAt: string;
}

/**
 * What the consumer has applied for one player, kept in the player's `player_counters` row beside
 * the objective values (one row update writes both). A row without applied events (created by a
 * read) has no activity yet.
 */
export async function findActivity(pool: Pool, player: PlayerRef): Promise<StoredActivity | undefined> {
  const [row] = await execute(
    pool,
    db
      .selectFrom('player_counters')
      .select([
        'environment_id',
        'player_id',
        'events_applied',
        'last_event_id',
        'last_offset',
        'last_occurred_at',
        'applied_events_digest',
        'updated_at',
      ])
      .where('environment_id', '=', player.environmentId)
      .where('player_id', '=', player.playerId)
      .where('events_applied', '>', 0),
  );
  if (!row) return undefined;
  return {
    environmentId: row.environment_id,
    playerId: row.player_id,
    eventsApplied: row.events_applied,
    lastEventId: row.last_event_id!,
    lastOffset: String(row.last_offset),
    lastOccurredAt: row.last_occurred_at!.toISOString(),
    appliedEventsDigest: row.applied_events_digest,
    updatedAt: row.updated_at.toISOString(),
  };
}
