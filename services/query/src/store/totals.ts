import type { Pool, PoolClient } from '@engage/postgres';
import type { EventTally } from '../domain/tally.ts';

/** One player's committed count of one event key: what Redis mirrors. */
export interface CountRow {
  environmentId: string;
  playerId: string;
  eventKey: string;
  eventsCounted: number;
}

export interface CountKey {
  environmentId: string;
  playerId: string;
  eventKey: string;
}

interface CountRecord {
  environment_id: string;
  player_id: string;
  event_key: string;
  events_counted: number;
}

const toCountRow = (r: CountRecord): CountRow => ({
  environmentId: r.environment_id,
  playerId: r.player_id,
  eventKey: r.event_key,
  eventsCounted: r.events_counted,
});

/** Adds a batch's tallies to the stored totals: one statement per table. */
export async function addTallies(client: PoolClient, tallies: EventTally[]): Promise<void> {
  if (tallies.length === 0) return;
  await client.query(
    `INSERT INTO player_event_counts AS c (environment_id, player_id, event_key, events_counted, last_event_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::uuid[])
     ON CONFLICT (environment_id, player_id, event_key) DO UPDATE SET
       events_counted = c.events_counted + EXCLUDED.events_counted,
       last_event_id = EXCLUDED.last_event_id,
       mirror_pending = true,
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

/** The committed counts of the given keys, in one query. */
export async function readCounts(pool: Pool, keys: CountKey[]): Promise<CountRow[]> {
  const { rows } = await pool.query<CountRecord>(
    `SELECT environment_id, player_id, event_key, events_counted FROM player_event_counts
     WHERE (environment_id, player_id, event_key) IN (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]))`,
    [keys.map((k) => k.environmentId), keys.map((k) => k.playerId), keys.map((k) => k.eventKey)],
  );
  return rows.map(toCountRow);
}

/** Rows still waiting for Redis after `graceMs` (their process died between commit and mirror). */
export async function pendingCounts(pool: Pool, graceMs: number, limit: number): Promise<CountRow[]> {
  const { rows } = await pool.query<CountRecord>(
    `SELECT environment_id, player_id, event_key, events_counted FROM player_event_counts
     WHERE mirror_pending AND updated_at < now() - make_interval(secs => $1::float8 / 1000)
     ORDER BY updated_at LIMIT $2`,
    [graceMs, limit],
  );
  return rows.map(toCountRow);
}

/** Clears the pending flag of rows Redis now holds, unless a later commit changed them meanwhile. */
export async function markMirrored(pool: Pool, rows: CountRow[]): Promise<void> {
  if (rows.length === 0) return;
  await pool.query(
    `UPDATE player_event_counts c SET mirror_pending = false
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[]) AS m(environment_id, player_id, event_key, counted)
     WHERE c.mirror_pending AND c.environment_id = m.environment_id AND c.player_id = m.player_id
       AND c.event_key = m.event_key AND c.events_counted = m.counted`,
    [
      rows.map((r) => r.environmentId),
      rows.map((r) => r.playerId),
      rows.map((r) => r.eventKey),
      rows.map((r) => r.eventsCounted),
    ],
  );
}

/** One page of an environment's counts in key order, after `after` (keyset paging for rebuilds). */
export async function environmentCounts(
  pool: Pool,
  environmentId: string,
  after: { playerId: string; eventKey: string } | undefined,
  limit: number,
): Promise<CountRow[]> {
  const { rows } = await pool.query<CountRecord>(
    `SELECT environment_id, player_id, event_key, events_counted FROM player_event_counts
     WHERE environment_id = $1 AND ($2::text IS NULL OR (player_id, event_key) > ($2, $3))
     ORDER BY player_id, event_key LIMIT $4`,
    [environmentId, after?.playerId ?? null, after?.eventKey ?? null, limit],
  );
  return rows.map(toCountRow);
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
