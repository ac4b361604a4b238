import {
  ENVIRONMENT_FILE_VERSION,
  ENVIRONMENT_SECTIONS,
  type EnvironmentDiff,
  type EnvironmentFile,
  type ItemChange,
  type SectionOwner,
} from '@engage/contracts/environment-file.ts';
import type { Logger } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import { hasChanges, planGatewaySections } from '../domain/environment-diff.ts';
import { findEnvironmentContext } from '../store/control-plane.ts';
import { loadGatewaySections, writeGatewaySections } from '../store/event-definitions.ts';
import { type OwnerSections, ownerSectionsOf } from '../upstreams/owner-sections.ts';
import type { OwnerService, Upstreams } from '../upstreams/upstreams.ts';

export interface DefinitionDeps {
  pool: Pool;
  upstreams: Upstreams;
  log: Logger;
  /** The sections and their owners (default: ENVIRONMENT_SECTIONS). */
  sections?: Readonly<Record<string, { owner: SectionOwner }>>;
}

/**
 * Applies an environment file. Sections owned by other services are first dry-run by their owners:
 * if any owner refuses, the whole file is refused and nothing is written anywhere. Then the
 * gateway's own sections (discovery, events, playerAttributes) are written in one transaction
 * holding the environment's row lock, and each other section is applied by its owner, in the
 * catalog's order. Owners' applies are idempotent, so re-applying after a partial failure converges.
 * Undefined: no such environment.
 */
export async function applyEnvironmentFile(
  deps: DefinitionDeps,
  environmentId: string,
  file: EnvironmentFile,
  options: { dryRun: boolean },
): Promise<EnvironmentDiff | undefined> {
  const environment = await findEnvironmentContext(deps.pool, environmentId);
  if (!environment) return undefined;
  const owners = ownerSectionsOf(deps.upstreams, deps.log);
  const foreign = foreignSections(deps, file);
  const planned = await owners.applyAll(environment, foreign, { dryRun: true });

  const own = await withTransaction(deps.pool, async (client) => {
    const current = await loadGatewaySections(client, environmentId, { lock: true });
    if (!current) return undefined;
    const plan = planGatewaySections(current, file);
    if (hasChanges(plan.changes) && !options.dryRun) {
      await writeGatewaySections(client, environmentId, plan.next);
    }
    return plan.changes;
  });
  if (!own) return undefined;
  const applied = options.dryRun ? planned : await owners.applyAll(environment, foreign, { dryRun: false });
  const changes: ItemChange[] = [...own, ...applied];
  return { environmentId, dryRun: options.dryRun, changed: hasChanges(changes), changes };
}

/** The current definition, as a file that applies to the same state (every owner is asked). */
export async function readEnvironmentFile(
  deps: DefinitionDeps,
  environmentId: string,
): Promise<Record<string, unknown> | undefined> {
  const environment = await findEnvironmentContext(deps.pool, environmentId);
  const sections = environment && (await loadGatewaySections(deps.pool, environmentId));
  if (!environment || !sections) return undefined;
  const others = await ownerSectionsOf(deps.upstreams, deps.log).readAll(
    environment,
    foreignSectionOwners(deps),
  );
  return { version: ENVIRONMENT_FILE_VERSION, ...sections, ...others };
}

/** Sections of the file owned by other services, in the catalog's order. */
function foreignSectionOwners(deps: DefinitionDeps): { name: string; owner: OwnerService }[] {
  return Object.entries(deps.sections ?? ENVIRONMENT_SECTIONS).flatMap(([name, { owner }]) =>
    owner === 'gateway' ? [] : [{ name, owner }],
  );
}

function foreignSections(deps: DefinitionDeps, file: EnvironmentFile): OwnerSections {
  const present = file as Record<string, unknown>;
  return foreignSectionOwners(deps).flatMap((s) =>
    present[s.name] === undefined ? [] : [{ ...s, value: present[s.name] }],
  );
}
