import type { Pool, PoolClient } from '@engage/postgres';
import type { EventTally } from '../domain/tally.ts';
import { arrayLiteral } from './array-literal.ts';

/**
 * Adds a batch's tallies to the stored totals: one statement, one row per player and event key (the
 * count, and each numeric property's sum added exactly: jsonb numbers are numeric). Each added sum
 * is merged into the stored object by key (only the keys the batch adds are looked at), rather than
 * by the plpgsql `add_event_sums` of migration 0005, which costs Postgres more per row (left in the
 * schema for processes of the previous version during a rolling deploy). Neither can be set-based:
 * ON CONFLICT's SET sees only the locked row and its proposed one, so the merge is per row.
 */
export async function addTallies(client: PoolClient, tallies: EventTally[]): Promise<void> {
  if (tallies.length === 0) return;
  await client.query({
    name: 'query-add-tallies',
    text: `INSERT INTO player_event_totals AS t (environment_id, player_id, event_key, events_counted, last_event_id, sums)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::uuid[], $6::jsonb[])
     ON CONFLICT (environment_id, player_id, event_key) DO UPDATE SET
       events_counted = t.events_counted + EXCLUDED.events_counted,
       last_event_id = EXCLUDED.last_event_id,
       sums = t.sums || coalesce((
         SELECT jsonb_object_agg(a.key, coalesce((t.sums ->> a.key)::numeric, 0) + a.value::numeric)
         FROM jsonb_each_text(EXCLUDED.sums) AS a), '{}'),
       updated_at = now()`,
    values: [
      tallies.map((t) => t.environmentId),
      tallies.map((t) => t.playerId),
      tallies.map((t) => t.eventKey),
      arrayLiteral(tallies.map((t) => t.count)),
      tallies.map((t) => t.lastEventId),
      tallies.map((t) => sumsJson(t.sums)),
    ],
  });
}

/** The sums as a JSON object of numbers, written from their exact decimal text (never a double). */
function sumsJson(sums: Record<string, string>): string {
  let json = '';
  for (const property in sums) json += `${json ? ',' : ''}${JSON.stringify(property)}:${sums[property]}`;
  return `{${json}}`;
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
