import type { EnvironmentDiff, EnvironmentFile } from '@engage/contracts/environment-file.ts';
import { ENVIRONMENT_FILE_VERSION } from '@engage/contracts/environment-file.ts';
import { type Pool, withTransaction } from '@engage/postgres';
import { hasChanges, planGatewaySections } from './domain/environment-diff.ts';
import { loadGatewaySections, writeGatewaySections } from './store/event-definitions.ts';

/**
 * Applies an environment file's gateway sections (discovery, events) in one transaction holding the
 * environment's row lock, so concurrent applies of one environment run one after the other. A dry
 * run computes the same difference and writes nothing. Undefined: no such environment.
 */
export async function applyEnvironmentFile(
  pool: Pool,
  environmentId: string,
  file: EnvironmentFile,
  options: { dryRun: boolean },
): Promise<EnvironmentDiff | undefined> {
  return withTransaction(pool, async (client) => {
    const current = await loadGatewaySections(client, environmentId, { lock: true });
    if (!current) return undefined;
    const plan = planGatewaySections(current, file);
    const changed = hasChanges(plan.changes);
    if (changed && !options.dryRun) await writeGatewaySections(client, environmentId, plan.next);
    return { environmentId, dryRun: options.dryRun, changed, changes: plan.changes };
  });
}

/** The current definition, as a file that applies to the same state. */
export async function readEnvironmentFile(
  pool: Pool,
  environmentId: string,
): Promise<EnvironmentFile | undefined> {
  const sections = await loadGatewaySections(pool, environmentId);
  if (!sections) return undefined;
  return { version: ENVIRONMENT_FILE_VERSION, discovery: sections.discovery, events: sections.events };
}
