import type { ColumnType, Generated } from 'kysely';
import type { StreakState } from '../domain/streaks.ts';
import type { StoredCounters, StoredEntries } from './progress-codec.ts';

/** A `json` column: read parsed, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;
/** A `timestamptz` column: read as a Date, written as ISO text or left to its default. */
type Timestamp = ColumnType<Date, string | undefined, string>;

/** The rules schema's tables (migrations/), for the typed statements of `sqlBuilder`. */
export interface RulesTables {
  /** One narrow row per player: what every event moves, and the row every writer locks. */
  player_counters: {
    environment_id: string;
    player_id: string;
    counters: ColumnType<StoredCounters, string | undefined, string>;
    revision: Generated<string>;
    events_applied: Generated<number>;
    last_event_id: string | null;
    last_offset: number | null;
    last_occurred_at: ColumnType<Date | null, string | null, string | null>;
    applied_events_digest: Generated<string>;
    updated_at: Timestamp;
  };
  /** The entries' rarely changing part and the streaks of a player (absent: none yet). */
  player_progress: {
    environment_id: string;
    player_id: string;
    missions: Json<StoredEntries>;
    streaks: Json<Record<string, StreakState>>;
    updated_at: Timestamp;
  };
  /** One row per item of an environment file's rules sections. */
  definitions: {
    environment_id: string;
    section: 'missions' | 'missionCollections' | 'streaks';
    key: string;
    position: number;
    definition: ColumnType<unknown, string, string>;
    version: Generated<number>;
    item_id: string;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  /** Bumped by every apply that changes an environment's rules. */
  definition_versions: {
    environment_id: string;
    version: number;
  };
}
