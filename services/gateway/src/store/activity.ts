import type { PoolClient } from '@engage/postgres';

/** The players each environment saw in a UTC month (its monthly active players). */

export async function activeAmong(
  client: PoolClient,
  environmentId: string,
  month: string,
  externalIds: readonly string[],
): Promise<Set<string>> {
  const { rows } = await client.query<{ external_id: string }>(
    `SELECT external_id FROM monthly_active_players
     WHERE environment_id = $1 AND month = $2 AND external_id = ANY($3::text[])`,
    [environmentId, month, externalIds],
  );
  return new Set(rows.map((r) => r.external_id));
}

/** Records players as active; returns how many were not yet (what the counters must add). */
export async function recordActive(
  client: PoolClient,
  environmentId: string,
  month: string,
  externalIds: readonly string[],
): Promise<number> {
  if (externalIds.length === 0) return 0;
  const { rowCount } = await client.query(
    `INSERT INTO monthly_active_players (environment_id, month, external_id)
     SELECT $1, $2, id FROM unnest($3::text[]) AS t(id) ORDER BY id
     ON CONFLICT DO NOTHING`,
    [environmentId, month, [...externalIds].sort()],
  );
  return rowCount ?? 0;
}
