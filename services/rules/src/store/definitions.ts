import type {
  MissionCollectionDefinition,
  MissionDefinition,
} from '@engage/contracts/environment/missions.ts';
import type { StreakDefinition } from '@engage/contracts/environment/streaks.ts';
import { execute, type Pool, type PoolClient, sqlBuilder } from '@engage/postgres';
import type { RulesSection, StoredItem } from '../domain/definition-changes.ts';
import { type EnvironmentRules, indexRules } from '../domain/definitions.ts';
import { derivedUuid } from '../domain/ids.ts';
import type { RulesTables } from './tables.ts';

type Queryable = Pool | PoolClient;

const db = sqlBuilder<RulesTables>();

/** Loads every rule of one environment, indexed at the given definition version. */
export async function loadRules(
  connection: Queryable,
  environmentId: string,
  version: number,
): Promise<EnvironmentRules> {
  const rows = await execute(
    connection,
    db
      .selectFrom('definitions')
      .select(['section', 'key', 'position', 'definition', 'item_id', 'created_at'])
      .where('environment_id', '=', environmentId)
      .orderBy('section')
      .orderBy('position'),
  );
  return indexRules({
    version,
    missions: rows
      .filter((r) => r.section === 'missions')
      .map((r) => ({
        definition: r.definition as MissionDefinition,
        position: r.position,
        createdAt: r.created_at.toISOString(),
      })),
    collections: rows
      .filter((r) => r.section === 'missionCollections')
      .map((r) => ({ definition: r.definition as MissionCollectionDefinition, collectionId: r.item_id })),
    streaks: rows.filter((r) => r.section === 'streaks').map((r) => r.definition as StreakDefinition),
  });
}

/** The environment's definition version; undefined when nothing was ever defined. */
export async function definitionVersion(
  connection: Queryable,
  environmentId: string,
): Promise<number | undefined> {
  const [row] = await execute(
    connection,
    db.selectFrom('definition_versions').select('version').where('environment_id', '=', environmentId),
  );
  return row?.version;
}

/** The definition versions of the given environments; an environment never defined is absent. */
export async function definitionVersions(
  client: PoolClient,
  environmentIds: readonly string[],
): Promise<Map<string, number>> {
  if (environmentIds.length === 0) return new Map();
  const { rows } = await client.query<{ environment_id: string; version: number }>({
    name: 'rules-definition-versions',
    text: `SELECT environment_id, version FROM definition_versions
     WHERE environment_id = ANY($1::uuid[])`,
    values: [environmentIds],
  });
  return new Map(rows.map((r) => [r.environment_id, r.version]));
}

/** Creates (when missing) and locks the environment's version row: serialises its applies. */
export async function lockDefinitionVersion(client: PoolClient, environmentId: string): Promise<void> {
  await execute(
    client,
    db
      .insertInto('definition_versions')
      .values({ environment_id: environmentId, version: 0 })
      .onConflict((oc) => oc.column('environment_id').doNothing()),
  );
  await execute(
    client,
    db
      .selectFrom('definition_versions')
      .select('version')
      .where('environment_id', '=', environmentId)
      .forUpdate(),
  );
}

/** The section's stored items. */
export function sectionItems(
  client: PoolClient,
  environmentId: string,
  section: RulesSection,
): Promise<StoredItem[]> {
  return execute(
    client,
    db
      .selectFrom('definitions')
      .select(['key', 'position', 'definition'])
      .where('environment_id', '=', environmentId)
      .where('section', '=', section),
  );
}

/** Creates or updates items of a section (an update counts the item's edits in `version`). */
export async function writeItems(
  client: PoolClient,
  environmentId: string,
  section: RulesSection,
  items: StoredItem[],
): Promise<void> {
  if (items.length === 0) return;
  await execute(
    client,
    db
      .insertInto('definitions')
      .values(
        items.map((item) => ({
          environment_id: environmentId,
          section,
          key: item.key,
          position: item.position,
          definition: JSON.stringify(item.definition),
          item_id: derivedUuid(section, environmentId, item.key),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['environment_id', 'section', 'key']).doUpdateSet((eb) => ({
          position: eb.ref('excluded.position'),
          definition: eb.ref('excluded.definition'),
          version: eb('definitions.version', '+', 1),
          updated_at: eb.fn('now'),
        })),
      ),
  );
}

export async function removeItems(
  client: PoolClient,
  environmentId: string,
  section: RulesSection,
  keys: string[],
): Promise<void> {
  if (keys.length === 0) return;
  await execute(
    client,
    db
      .deleteFrom('definitions')
      .where('environment_id', '=', environmentId)
      .where('section', '=', section)
      .where('key', 'in', keys),
  );
}

/** Moves the environment's definition version on: readers reload its rules. */
export async function bumpDefinitionVersion(client: PoolClient, environmentId: string): Promise<void> {
  await execute(
    client,
    db
      .updateTable('definition_versions')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('environment_id', '=', environmentId),
  );
}

/** The section as applied, in feed order. */
export async function readSection(
  connection: Queryable,
  environmentId: string,
  section: RulesSection,
): Promise<unknown[]> {
  const rows = await execute(
    connection,
    db
      .selectFrom('definitions')
      .select('definition')
      .where('environment_id', '=', environmentId)
      .where('section', '=', section)
      .orderBy('position'),
  );
  return rows.map((r) => r.definition);
}
