import type { PlayerAttributeDefinition } from '@engage/contracts/http/players.ts';
import type { Pool, PoolClient } from '@engage/postgres';

/** Section `playerAttributes` of the environment file. */

interface DefinitionRow {
  attribute_key: string;
  type: PlayerAttributeDefinition['type'];
  active: boolean;
  description: string | null;
}

export async function loadAttributeDefinitions(
  db: Pool | PoolClient,
  environmentId: string,
  options: { lock?: boolean } = {},
): Promise<PlayerAttributeDefinition[]> {
  const { rows } = await db.query<DefinitionRow>(
    `SELECT attribute_key, type, active, description FROM player_attribute_definitions
     WHERE environment_id = $1 ORDER BY attribute_key ${options.lock ? 'FOR UPDATE' : ''}`,
    [environmentId],
  );
  return rows.map((row) => ({
    key: row.attribute_key,
    type: row.type,
    active: row.active,
    ...(row.description === null ? {} : { description: row.description }),
  }));
}

export async function writeAttributeDefinitions(
  client: PoolClient,
  environmentId: string,
  definitions: readonly PlayerAttributeDefinition[],
): Promise<void> {
  const keys = definitions.map((d) => d.key);
  await client.query(
    'DELETE FROM player_attribute_definitions WHERE environment_id = $1 AND NOT (attribute_key = ANY($2))',
    [environmentId, keys],
  );
  if (definitions.length === 0) return;
  await client.query(
    `INSERT INTO player_attribute_definitions (environment_id, attribute_key, type, active, description)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::boolean[], $5::text[])
     ON CONFLICT (environment_id, attribute_key) DO UPDATE
       SET type = EXCLUDED.type, active = EXCLUDED.active, description = EXCLUDED.description, updated_at = now()
       WHERE (player_attribute_definitions.type, player_attribute_definitions.active, player_attribute_definitions.description)
             IS DISTINCT FROM (EXCLUDED.type, EXCLUDED.active, EXCLUDED.description)`,
    [
      environmentId,
      keys,
      definitions.map((d) => d.type),
      definitions.map((d) => d.active),
      definitions.map((d) => d.description ?? null),
    ],
  );
}

/**
 * Players' attributes are a jsonb object. A number attribute is a jsonb number, which Postgres keeps
 * as an exact numeric; it is written from its decimal text and read back as text (`attributes::text`)
 * and parsed losslessly, because the driver's own JSON.parse would round it to a double.
 */
