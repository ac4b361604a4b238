import { type AttributeValue, isDecimalValue } from '@engage/contracts';
import type { PlayerAttributeDefinition } from '@engage/contracts/http/players.ts';
import type { Pool, PoolClient } from '@engage/postgres';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';

/** Section `playerAttributes` of the environment file, and the attribute values of players. */

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

/**
 * Players' attributes are a jsonb object. A number attribute is a jsonb number, which Postgres keeps
 * as an exact numeric; it is written from its decimal text and read back as text (`attributes::text`)
 * and parsed losslessly, because the driver's own JSON.parse would round it to a double.
 */
export function attributesToJsonb(set: Record<string, AttributeValue>): string {
  const fields = Object.entries(set).map(
    ([key, value]) =>
      `${JSON.stringify(key)}:${isDecimalValue(value) ? value.decimal : JSON.stringify(value)}`,
  );
  return `{${fields.join(',')}}`;
}

export function attributesFromJsonb(text: string | null): Record<string, AttributeValue> {
  if (text === null) return {};
  const parsed = parseLossless(text) as Record<string, unknown>;
  const attributes: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (isLosslessNumber(value)) attributes[key] = { decimal: value.toString() };
    else if (typeof value === 'string' || typeof value === 'boolean') attributes[key] = value;
  }
  return attributes;
}

/** Sets and removes attributes of one player in one statement; answers the player's attributes. */
export async function writePlayerAttributes(
  client: PoolClient,
  environmentId: string,
  externalId: string,
  set: Record<string, AttributeValue>,
  remove: readonly string[],
): Promise<{ timeZone: string | null; attributes: Record<string, AttributeValue> }> {
  const { rows } = await client.query<{ time_zone: string | null; attributes: string }>(
    `UPDATE players SET attributes = (attributes || $3::jsonb) - $4::text[], updated_at = now()
     WHERE environment_id = $1 AND external_id = $2
     RETURNING time_zone, attributes::text AS attributes`,
    [environmentId, externalId, attributesToJsonb(set), remove],
  );
  const row = rows[0];
  if (!row) throw new Error('the player was not created before its attributes were written');
  return { timeZone: row.time_zone, attributes: attributesFromJsonb(row.attributes) };
}

/** The player as stored, its row locked until the transaction ends; undefined: not created yet. */
export async function lockPlayerState(
  client: PoolClient,
  environmentId: string,
  externalId: string,
): Promise<{ timeZone: string | null; attributes: Record<string, AttributeValue> } | undefined> {
  const { rows } = await client.query<{ time_zone: string | null; attributes: string }>(
    `SELECT time_zone, attributes::text AS attributes FROM players
     WHERE environment_id = $1 AND external_id = $2 FOR UPDATE`,
    [environmentId, externalId],
  );
  const row = rows[0];
  return row && { timeZone: row.time_zone, attributes: attributesFromJsonb(row.attributes) };
}
