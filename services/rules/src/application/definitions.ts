import type { SectionItemChange } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import { type RulesSection, sectionChanges } from '../domain/definition-changes.ts';
import {
  bumpDefinitionVersion,
  lockDefinitionVersion,
  readSection,
  removeItems,
  sectionItems,
  writeItems,
} from '../store/definitions.ts';

/**
 * Applies a whole section of an environment file: items absent from `items` are removed, the others
 * created or updated, and the environment's definition version moves when anything changed (every
 * reader reloads its rules). With `dryRun` only the changes are computed.
 */
export function applyRulesSection(
  pool: Pool,
  environmentId: string,
  section: RulesSection,
  items: { key: string }[],
  dryRun: boolean,
): Promise<SectionItemChange[]> {
  return withTransaction(pool, async (client) => {
    await lockDefinitionVersion(client, environmentId);
    const { changes, writes, removed } = sectionChanges(
      section,
      await sectionItems(client, environmentId, section),
      items,
    );
    if (dryRun || (writes.length === 0 && removed.length === 0)) return changes;
    await writeItems(client, environmentId, section, writes);
    await removeItems(client, environmentId, section, removed);
    await bumpDefinitionVersion(client, environmentId);
    return changes;
  });
}

/** The section as applied, in feed order. */
export async function readRulesSection(
  pool: Pool,
  environmentId: string,
  section: RulesSection,
): Promise<{ key: string }[]> {
  return (await readSection(pool, environmentId, section)) as { key: string }[];
}
