import type { EnvironmentContext } from '@engage/contracts';
import {
  ENVIRONMENT_FILE_VERSION,
  ENVIRONMENT_SECTIONS,
  type EnvironmentDiff,
  type EnvironmentFile,
  type ItemChange,
  type SectionOwner,
} from '@engage/contracts/environment-file.ts';
import { type Logger, Problem } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import { checkReferences, type EventCatalog } from '../domain/definition-references.ts';
import { hasChanges, planGatewaySections } from '../domain/environment-diff.ts';
import { findEnvironmentContext } from '../store/control-plane.ts';
import {
  loadGatewaySections,
  loadStoredEventNames,
  writeGatewaySections,
} from '../store/event-definitions.ts';
import { type OwnerSectionClient, type OwnerSections, ownerSectionsOf } from '../upstreams/owner-sections.ts';
import type { OwnerService, Upstreams } from '../upstreams/upstreams.ts';

export interface DefinitionDeps {
  pool: Pool;
  upstreams: Upstreams;
  log: Logger;
  /** The sections and their owners (default: ENVIRONMENT_SECTIONS). */
  sections?: Readonly<Record<string, { owner: SectionOwner }>>;
}

/**
 * Applies an environment file. A file naming an event, property or mission that does not exist is
 * refused first (400, `definition.unknown_*`). Sections owned by other services are then dry-run by
 * their owners: if any owner refuses, the whole file is refused and nothing is written anywhere. Then the
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
  const { errors, warnings } = checkReferences(file, await knownNames(deps, owners, environment, file));
  if (errors.length > 0) throw new Problem(400, errors);
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
  return { environmentId, dryRun: options.dryRun, changed: hasChanges(changes), changes, warnings };
}

/**
 * The names the file may refer to once applied: its own events (the stored declarations when it has
 * none), what discovery stored when discovery stays on, and its missions (the stored ones when it
 * has none but names missions in a collection).
 */
async function knownNames(
  deps: DefinitionDeps,
  owners: OwnerSectionClient,
  environment: EnvironmentContext,
  file: EnvironmentFile,
) {
  const stored = await loadStoredEventNames(deps.pool, environment.environmentId);
  const events = stored?.events ?? [];
  const catalog = (events: { key: string; properties: Iterable<string> }[]): EventCatalog =>
    new Map(events.map((e) => [e.key, new Set(e.properties)]));
  const declared = file.events
    ? catalog(file.events.map((e) => ({ key: e.key, properties: Object.keys(e.properties) })))
    : catalog(events.filter((e) => !e.discovered));
  const discoveryOn = file.discovery ?? stored?.discovery ?? false;
  const discovered = discoveryOn ? catalog(events.filter((e) => e.discovered)) : new Map();
  return { declared, discovered, missions: new Set(await missionKeys(owners, environment, file)) };
}

async function missionKeys(
  owners: OwnerSectionClient,
  environment: EnvironmentContext,
  file: EnvironmentFile,
): Promise<string[]> {
  if (file.missions) return file.missions.map((m) => m.key);
  if (!file.missionCollections?.some((c) => c.missions.length > 0)) return [];
  const { missions } = await owners.readAll(environment, [
    { name: 'missions', owner: ENVIRONMENT_SECTIONS.missions.owner },
  ]);
  return ((missions ?? []) as { key: string }[]).map((m) => m.key);
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
