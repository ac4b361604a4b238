import type { EnvironmentContext } from '@engage/contracts';
import type { EventRule } from '@engage/contracts/event-rules.ts';
import type { PoolClient } from '@engage/postgres';

/** The SQL of discovery: events and properties defined by their first occurrence in traffic. */

/**
 * The environment with its discovery setting, its row locked until the caller's transaction ends:
 * discoveries in one environment take turns, and take the environment's lock before the
 * definitions' as an apply does (so the two never deadlock). Undefined: no such environment.
 */
export async function lockDiscoveringEnvironment(
  client: PoolClient,
  environmentId: string,
): Promise<(EnvironmentContext & { discovery: boolean }) | undefined> {
  const { rows } = await client.query<{
    organization_id: string;
    kind: 'Sandbox' | 'Live';
    discovery: boolean;
  }>(
    `SELECT p.organization_id, e.kind, e.discovery
       FROM environments e JOIN projects p USING (project_id)
      WHERE e.environment_id = $1 FOR UPDATE OF e`,
    [environmentId],
  );
  const row = rows[0];
  return (
    row && {
      organizationId: row.organization_id,
      environmentId,
      environmentKind: row.kind,
      discovery: row.discovery,
    }
  );
}

/**
 * Stores what discovery defined: an event not stored yet as sent, and of a stored one only the
 * properties it does not have. Whatever is stored already wins (another request, another replica,
 * an apply): once defined, a type holds. Answers the events it created and those it extended.
 */
export async function defineDiscovered(
  client: PoolClient,
  environmentId: string,
  discovered: readonly EventRule[],
): Promise<{ created: string[]; extended: string[] }> {
  if (discovered.length === 0) return { created: [], extended: [] };
  const rules = [...discovered].sort((a, b) => a.key.localeCompare(b.key));
  const { rows } = await client.query<{ event_key: string; created: boolean }>(
    `INSERT INTO event_definitions AS d (environment_id, event_key, properties, discovered)
     SELECT $1, *, true FROM unnest($2::text[], $3::jsonb[])
     ON CONFLICT (environment_id, event_key) DO UPDATE
       SET properties = EXCLUDED.properties || d.properties, updated_at = now()
       WHERE NOT d.properties ?& array(SELECT jsonb_object_keys(EXCLUDED.properties))
     RETURNING event_key, (xmax = 0) AS created`,
    [environmentId, rules.map((r) => r.key), rules.map((r) => JSON.stringify(r.properties))],
  );
  return {
    created: rows.filter((r) => r.created).map((r) => r.event_key),
    extended: rows.filter((r) => !r.created).map((r) => r.event_key),
  };
}

/** The stored definitions of the given events (those that exist). */
export async function storedEventRules(
  client: PoolClient,
  environmentId: string,
  keys: readonly string[],
): Promise<EventRule[]> {
  const { rows } = await client.query<{
    event_key: string;
    active: boolean;
    properties: EventRule['properties'];
  }>(
    `SELECT event_key, active, properties FROM event_definitions
     WHERE environment_id = $1 AND event_key = ANY($2) ORDER BY event_key`,
    [environmentId, keys],
  );
  return rows.map((row) => ({ key: row.event_key, active: row.active, properties: row.properties }));
}
