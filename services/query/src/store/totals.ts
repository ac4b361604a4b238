import type { Pool, PoolClient } from '@engage/postgres';
import type { EventTally } from '../domain/tally.ts';

/** Adds a batch's tallies to the stored totals: one statement per table. */
export async function addTallies(client: PoolClient, tallies: EventTally[]): Promise<void> {
  if (tallies.length === 0) return;
  await client.query(
    `INSERT INTO player_event_counts AS c (environment_id, player_id, event_key, events_counted, last_event_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::uuid[])
     ON CONFLICT (environment_id, player_id, event_key) DO UPDATE SET
       events_counted = c.events_counted + EXCLUDED.events_counted,
       last_event_id = EXCLUDED.last_event_id,
       updated_at = now()`,
    [
      tallies.map((t) => t.environmentId),
      tallies.map((t) => t.playerId),
      tallies.map((t) => t.eventKey),
      tallies.map((t) => t.count),
      tallies.map((t) => t.lastEventId),
    ],
  );
  const sums = tallies.flatMap((t) =>
    Object.entries(t.sums).map(([property, total]) => ({ ...t, property, total })),
  );
  if (sums.length === 0) return;
  await client.query(
    `INSERT INTO player_event_sums AS s (environment_id, player_id, event_key, property, total)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::numeric[])
     ON CONFLICT (environment_id, player_id, event_key, property) DO UPDATE SET
       total = s.total + EXCLUDED.total,
       updated_at = now()`,
    [
      sums.map((s) => s.environmentId),
      sums.map((s) => s.playerId),
      sums.map((s) => s.eventKey),
      sums.map((s) => s.property),
      sums.map((s) => s.total),
    ],
  );
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
    `SELECT c.event_key, c.events_counted,
       coalesce(jsonb_object_agg(s.property, trim_scale(s.total)::text) FILTER (WHERE s.property IS NOT NULL), '{}') AS sums
     FROM player_event_counts c
     LEFT JOIN player_event_sums s USING (environment_id, player_id, event_key)
     WHERE c.environment_id = $1 AND c.player_id = $2
     GROUP BY c.event_key, c.events_counted
     ORDER BY c.event_key`,
    [environmentId, playerId],
  );
  return rows.map((r) => ({ eventKey: r.event_key, count: r.events_counted, sums: r.sums }));
}
