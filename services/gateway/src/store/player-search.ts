import type { AttributeValue } from '@engage/contracts';
import type { Pool } from '@engage/postgres';
import { attributesFromJsonb } from './player-attributes.ts';

export interface PlayerSearch {
  idPrefix?: string | undefined;
  /** An attribute and the JSON values it may hold to match (a text, and a number or boolean). */
  attribute?: { key: string; values: readonly string[] } | undefined;
  after?: string | undefined;
  limit: number;
}

export interface FoundPlayer {
  externalId: string;
  timeZone: string | null;
  attributes: Record<string, AttributeValue>;
}

/**
 * One page of an environment's players in order of id (the primary key's order, which the `after`
 * cursor continues). A jsonb number equals any spelling of the same number (12.5 and 12.50).
 */
export async function searchPlayers(
  pool: Pool,
  environmentId: string,
  search: PlayerSearch,
): Promise<FoundPlayer[]> {
  const { rows } = await pool.query<{ external_id: string; time_zone: string | null; attributes: string }>(
    `SELECT external_id, time_zone, attributes::text AS attributes FROM players
     WHERE environment_id = $1
       AND ($2::text IS NULL OR starts_with(external_id, $2))
       AND ($3::text IS NULL OR attributes -> $3 = ANY ($4::jsonb[]))
       AND ($5::text IS NULL OR external_id > $5)
     ORDER BY external_id
     LIMIT $6`,
    [
      environmentId,
      search.idPrefix ?? null,
      search.attribute?.key ?? null,
      search.attribute?.values ?? [],
      search.after ?? null,
      search.limit,
    ],
  );
  return rows.map((row) => ({
    externalId: row.external_id,
    timeZone: row.time_zone,
    attributes: attributesFromJsonb(row.attributes),
  }));
}
