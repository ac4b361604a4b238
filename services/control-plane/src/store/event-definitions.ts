import type { EventDefinition } from '@engage/contracts/environment-file.ts';
import type { EventRule, EventRules } from '@engage/contracts/event-rules.ts';
import type { Pool, PoolClient } from '@engage/postgres';
import type { GatewaySectionsState } from '../domain/environment-diff.ts';
import { loadAttributeDefinitions, writeAttributeDefinitions } from './player-attributes.ts';

/** The gateway's sections of an environment's definition: discovery, events, player attributes. */

interface DefinitionRow {
  event_key: string;
  active: boolean;
  description: string | null;
  properties: EventDefinition['properties'];
  discovered: boolean;
}

async function definitionRows(db: Pool | PoolClient, environmentId: string, lock = false) {
  const { rows } = await db.query<DefinitionRow>(
    `SELECT event_key, active, description, properties, discovered FROM event_definitions
     WHERE environment_id = $1 ORDER BY event_key ${lock ? 'FOR UPDATE' : ''}`,
    [environmentId],
  );
  return rows;
}

/** Undefined when the environment does not exist. */
export async function loadGatewaySections(
  db: Pool | PoolClient,
  environmentId: string,
  options: { lock?: boolean } = {},
): Promise<GatewaySectionsState | undefined> {
  const { rows } = await db.query<{ discovery: boolean }>(
    `SELECT discovery FROM environments WHERE environment_id = $1 ${options.lock ? 'FOR UPDATE' : ''}`,
    [environmentId],
  );
  if (!rows[0]) return undefined;
  const events = (await definitionRows(db, environmentId, options.lock)).map(
    (row): EventDefinition => ({
      key: row.event_key,
      active: row.active,
      properties: row.properties,
      ...(row.description === null ? {} : { description: row.description }),
      ...(row.discovered ? { discovered: true } : {}),
    }),
  );
  const playerAttributes = await loadAttributeDefinitions(db, environmentId, options);
  return { discovery: rows[0].discovery, events, playerAttributes };
}

export async function writeGatewaySections(
  client: PoolClient,
  environmentId: string,
  state: GatewaySectionsState,
): Promise<void> {
  await client.query(
    'UPDATE environments SET discovery = $2, updated_at = now() WHERE environment_id = $1 AND discovery <> $2',
    [environmentId, state.discovery],
  );
  await writeAttributeDefinitions(client, environmentId, state.playerAttributes);
  const keys = state.events.map((e) => e.key);
  await client.query(
    'DELETE FROM event_definitions WHERE environment_id = $1 AND NOT (event_key = ANY($2))',
    [environmentId, keys],
  );
  if (state.events.length === 0) return;
  await client.query(
    `INSERT INTO event_definitions (environment_id, event_key, active, description, properties, discovered)
     SELECT $1, * FROM unnest($2::text[], $3::boolean[], $4::text[], $5::jsonb[], $6::boolean[])
     ON CONFLICT (environment_id, event_key) DO UPDATE
       SET active = EXCLUDED.active, description = EXCLUDED.description, properties = EXCLUDED.properties,
           discovered = EXCLUDED.discovered, updated_at = now()
       WHERE (event_definitions.active, event_definitions.description, event_definitions.properties,
              event_definitions.discovered)
             IS DISTINCT FROM (EXCLUDED.active, EXCLUDED.description, EXCLUDED.properties, EXCLUDED.discovered)`,
    [
      environmentId,
      keys,
      state.events.map((e) => e.active),
      state.events.map((e) => e.description ?? null),
      state.events.map((e) => JSON.stringify(e.properties)),
      // An event the file lists without `discovered: true` is declared from now on.
      state.events.map((e) => e.discovered ?? false),
    ],
  );
}

/** The rules POST /v1/events checks items against. */
export async function loadEventRules(
  db: Pool | PoolClient,
  environmentId: string,
): Promise<EventRules | undefined> {
  const sections = await loadGatewaySections(db, environmentId);
  if (!sections) return undefined;
  return {
    discovery: sections.discovery,
    events: new Map(
      sections.events.map((e): [string, EventRule] => [
        e.key,
        { key: e.key, active: e.active, properties: e.properties },
      ]),
    ),
  };
}

/**
 * Stores what discovery defined and returns those events as stored afterwards. A definition stored
 * meanwhile (another request, another replica, an apply) wins for every property it already has:
 * once defined, a type holds. The rows stay locked until the transaction ends, so items checked
 * against what this returns are checked against what stays stored.
 */
export async function storeDiscovered(
  client: PoolClient,
  environmentId: string,
  discovered: ReadonlyMap<string, EventRule>,
): Promise<Map<string, EventRule>> {
  if (discovered.size === 0) return new Map();
  const rules = [...discovered.values()].sort((a, b) => a.key.localeCompare(b.key));
  const keys = rules.map((r) => r.key);
  await client.query(
    `INSERT INTO event_definitions AS d (environment_id, event_key, properties, discovered)
     SELECT $1, *, true FROM unnest($2::text[], $3::jsonb[])
     ON CONFLICT (environment_id, event_key) DO UPDATE
       SET properties = EXCLUDED.properties || d.properties, updated_at = now()
       WHERE NOT d.properties ?& array(SELECT jsonb_object_keys(EXCLUDED.properties))`,
    [environmentId, keys, rules.map((r) => JSON.stringify(r.properties))],
  );
  // A statement of its own: its snapshot includes a definition another transaction committed
  // while the insert above waited for it.
  const { rows } = await client.query<Omit<DefinitionRow, 'description'>>(
    `SELECT event_key, active, properties FROM event_definitions
     WHERE environment_id = $1 AND event_key = ANY($2) ORDER BY event_key FOR SHARE`,
    [environmentId, keys],
  );
  return new Map(
    rows.map((row): [string, EventRule] => [
      row.event_key,
      { key: row.event_key, active: row.active, properties: row.properties },
    ]),
  );
}

/**
 * Whether discovery is on, and every stored event definition with its property names and whether
 * discovery defined it. Undefined when the environment does not exist.
 */
export async function loadStoredEventNames(
  db: Pool | PoolClient,
  environmentId: string,
): Promise<
  { discovery: boolean; events: { key: string; properties: string[]; discovered: boolean }[] } | undefined
> {
  const environment = await db.query<{ discovery: boolean }>(
    'SELECT discovery FROM environments WHERE environment_id = $1',
    [environmentId],
  );
  const definitions = await db.query<{ event_key: string; properties: string[]; discovered: boolean }>(
    `SELECT event_key, array(SELECT jsonb_object_keys(properties)) AS properties, discovered
     FROM event_definitions WHERE environment_id = $1`,
    [environmentId],
  );
  if (!environment.rows[0]) return undefined;
  return {
    discovery: environment.rows[0].discovery,
    events: definitions.rows.map((row) => ({
      key: row.event_key,
      properties: row.properties,
      discovered: row.discovered,
    })),
  };
}
