import type { PoolClient } from '@engage/postgres';

/** The players each environment saw in a UTC month (its monthly active players). */

export async function activeAmong(
  client: PoolClient,
  environmentId: string,
  month: string,
  externalIds: readonly string[],
): Promise<Set<string>> {
  // One primary-key probe per player (a scalar subquery), whatever the statistics: with a filter
  // on the month, a table filled since its last ANALYZE is read whole.
  const { rows } = await client.query<{ external_id: string }>({
    name: 'gateway-active-among',
    text: `SELECT k.external_id FROM unnest($3::text[]) AS k(external_id)
     WHERE (SELECT true FROM monthly_active_players m
            WHERE m.environment_id = $1 AND m.month = $2 AND m.external_id = k.external_id)`,
    values: [environmentId, month, externalIds],
  });
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
