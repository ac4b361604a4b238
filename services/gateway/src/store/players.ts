import type { AttributeValue } from '@engage/contracts';
import type { Pool, PoolClient } from '@engage/postgres';
import { attributesFromJsonb } from './player-attributes.ts';

/**
 * Players are created on first sight. One statement upserts every player a request names; the
 * insert that creates a row is the only one that reports it as new, however many requests race.
 */

export interface PlayerSighting {
  externalId: string;
  /** A zone the request carried; stored on the player when it differs. */
  timeZone: string | null;
}

export interface PlayerRecord {
  externalId: string;
  timeZone: string | null;
  attributes: Record<string, AttributeValue>;
  isNew: boolean;
}

export async function upsertPlayers(
  db: Pool | PoolClient,
  environmentId: string,
  sightings: readonly PlayerSighting[],
): Promise<Map<string, PlayerRecord>> {
  // One row per player (the last zone given wins), in a fixed order so concurrent batches lock alike.
  const byId = new Map<string, string | null>();
  for (const s of sightings) byId.set(s.externalId, s.timeZone ?? byId.get(s.externalId) ?? null);
  const ids = [...byId.keys()].sort();
  const { rows } = await db.query<{
    external_id: string;
    time_zone: string | null;
    /** jsonb as text, parsed losslessly (numbers are exact numerics). */
    attributes: string | null;
    created: boolean;
  }>(
    `WITH input AS (
       SELECT * FROM unnest($2::text[], $3::text[]) AS t(external_id, time_zone)
     ), written AS (
       INSERT INTO players AS p (environment_id, external_id, time_zone)
       SELECT $1, external_id, time_zone FROM input ORDER BY external_id
       ON CONFLICT (environment_id, external_id) DO UPDATE
         SET time_zone = EXCLUDED.time_zone, updated_at = now()
         WHERE EXCLUDED.time_zone IS NOT NULL AND p.time_zone IS DISTINCT FROM EXCLUDED.time_zone
       RETURNING external_id, time_zone, attributes, (xmax = 0) AS created
     )
     SELECT i.external_id,
            COALESCE(w.time_zone, p.time_zone, i.time_zone) AS time_zone,
            COALESCE(w.attributes, p.attributes)::text AS attributes,
            COALESCE(w.created, false) AS created
     FROM input i
     LEFT JOIN written w USING (external_id)
     LEFT JOIN players p ON p.environment_id = $1 AND p.external_id = i.external_id`,
    [environmentId, ids, ids.map((id) => byId.get(id) ?? null)],
  );
  return new Map(
    rows.map((row) => [
      row.external_id,
      {
        externalId: row.external_id,
        timeZone: row.time_zone,
        attributes: attributesFromJsonb(row.attributes),
        isNew: row.created,
      },
    ]),
  );
}

export interface StoredPlayer {
  timeZone: string | null;
  attributes: Record<string, AttributeValue>;
  /** Among the month's active players. */
  active: boolean;
}

/**
 * Whether the player `k.external_id` of environment `$1` is active in month `$3`: a scalar subquery
 * is one primary-key probe per player whatever the statistics say. A join or EXISTS can be planned
 * as a scan of the month's whole active set, which a table filled since its last ANALYZE invites.
 */
const ACTIVE_IN_MONTH = `coalesce((SELECT true FROM monthly_active_players m
             WHERE m.environment_id = $1 AND m.month = $3 AND m.external_id = k.external_id), false)`;

/** One read, no lock: the player as stored and whether it is active in `month` (undefined: never seen). */
export async function readPlayer(
  db: Pool | PoolClient,
  environmentId: string,
  externalId: string,
  month: string,
): Promise<StoredPlayer | undefined> {
  return (await readPlayers(db, environmentId, [externalId], month)).get(externalId);
}

/**
 * One read, no lock, for players of one environment: each one stored (absent: never seen) with its
 * zone, attributes and whether it is active in `month`. A named statement: planned once per
 * connection.
 */
export async function readPlayers(
  db: Pool | PoolClient,
  environmentId: string,
  externalIds: readonly string[],
  month: string,
): Promise<Map<string, StoredPlayer>> {
  const { rows } = await db.query<{
    external_id: string;
    time_zone: string | null;
    attributes: string;
    active: boolean;
  }>({
    name: 'gateway-read-players',
    text: `SELECT p.external_id, p.time_zone, p.attributes::text AS attributes, ${ACTIVE_IN_MONTH} AS active
           FROM unnest($2::text[]) AS k(external_id)
           JOIN players p ON p.environment_id = $1 AND p.external_id = k.external_id`,
    values: [environmentId, externalIds, month],
  });
  return new Map(
    rows.map((row) => [
      row.external_id,
      { timeZone: row.time_zone, attributes: attributesFromJsonb(row.attributes), active: row.active },
    ]),
  );
}

/** What ingestion needs to know of a stored player: its zone and whether it is counted for the month. */
export interface StoredSighting {
  timeZone: string | null;
  /** Among the month's active players. */
  active: boolean;
}

/**
 * One read, no lock, for the players of a batch: each one stored (absent: never seen), its zone and
 * whether it is active in `month`. Attributes are left out: events do not carry them.
 */
export async function readSightings(
  db: Pool | PoolClient,
  environmentId: string,
  externalIds: readonly string[],
  month: string,
): Promise<Map<string, StoredSighting>> {
  const { rows } = await db.query<{ external_id: string; time_zone: string | null; active: boolean }>({
    name: 'gateway-read-sightings',
    text: `SELECT p.external_id, p.time_zone, ${ACTIVE_IN_MONTH} AS active
       FROM unnest($2::text[]) AS k(external_id)
       JOIN players p ON p.environment_id = $1 AND p.external_id = k.external_id`,
    values: [environmentId, externalIds, month],
  });
  return new Map(rows.map((row) => [row.external_id, { timeZone: row.time_zone, active: row.active }]));
}
