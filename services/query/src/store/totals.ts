import type { Pool, PoolClient } from '@engage/postgres';
import type { EventTally } from '../domain/tally.ts';

/**
 * Adds a batch's tallies to the stored totals: one statement, one row per player and event key (the
 * count, and each numeric property's sum added exactly: jsonb numbers are numeric). The sums are
 * merged by an expression in the statement rather than by the plpgsql `add_event_sums` of migration
 * 0005, which costs Postgres more per row (left in the schema for processes of the previous
 * version during a rolling deploy).
 */
export async function addTallies(client: PoolClient, tallies: EventTally[]): Promise<void> {
  if (tallies.length === 0) return;
  await client.query(
    `INSERT INTO player_event_totals AS t (environment_id, player_id, event_key, events_counted, last_event_id, sums)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::uuid[], $6::jsonb[])
     ON CONFLICT (environment_id, player_id, event_key) DO UPDATE SET
       events_counted = t.events_counted + EXCLUDED.events_counted,
       last_event_id = EXCLUDED.last_event_id,
       sums = (
         SELECT coalesce(jsonb_object_agg(k, coalesce((t.sums ->> k)::numeric, 0) + coalesce((EXCLUDED.sums ->> k)::numeric, 0)), '{}')
         FROM (SELECT jsonb_object_keys(t.sums) UNION SELECT jsonb_object_keys(EXCLUDED.sums)) AS keys (k)
       ),
       updated_at = now()`,
    [
      tallies.map((t) => t.environmentId),
      tallies.map((t) => t.playerId),
      tallies.map((t) => t.eventKey),
      tallies.map((t) => t.count),
      tallies.map((t) => t.lastEventId),
      tallies.map((t) => sumsJson(t.sums)),
    ],
  );
}

/** The sums as a JSON object of numbers, written from their exact decimal text (never a double). */
function sumsJson(sums: Record<string, string>): string {
  const members = Object.entries(sums).map(([property, total]) => `${JSON.stringify(property)}:${total}`);
  return `{${members.join(',')}}`;
}

export interface PlayerEventTotals {
  eventKey: string;
  count: number;
  sums: Record<string, string>;
}

/** Everything counted for one player, per event key. */
export async function findPlayerTotals(
  pool: Pool,
  environmentId: string,
  playerId: string,
): Promise<PlayerEventTotals[]> {
  const { rows } = await pool.query<{
    event_key: string;
    events_counted: number;
    sums: Record<string, string>;
  }>(
    `SELECT t.event_key, t.events_counted,
       (SELECT coalesce(jsonb_object_agg(s.key, trim_scale(s.value::numeric)::text), '{}')
        FROM jsonb_each_text(t.sums) s) AS sums
     FROM player_event_totals t
     WHERE t.environment_id = $1 AND t.player_id = $2
     ORDER BY t.event_key`,
    [environmentId, playerId],
  );
  return rows.map((r) => ({ eventKey: r.event_key, count: r.events_counted, sums: r.sums }));
}
