import type { DefinitionWarningCode, ProblemCode, ProblemItem } from '@engage/contracts';
import type { PropertyFilter } from '@engage/contracts/environment/missions.ts';
import type { EnvironmentFile } from '@engage/contracts/environment-file.ts';
import { distance } from 'fastest-levenshtein';

/**
 * Checks that every event, event property and mission a file's definitions name exists, so a
 * misspelled name is refused instead of applying a mission, streak or board that can never progress.
 * An event (or property) is known when the file's `events` declare it (the stored declarations when
 * the file has no `events`); with discovery on, one that discovery stored is accepted with a warning.
 */

/** Event keys with the names of their properties. */
export type EventCatalog = ReadonlyMap<string, ReadonlySet<string>>;

export interface KnownNames {
  declared: EventCatalog;
  /** What discovery stored; empty when discovery is off. */
  discovered: EventCatalog;
  /** Mission keys a collection may name (the file's missions, or the stored ones without them). */
  missions: ReadonlySet<string>;
}

export interface ReferenceFindings {
  /** Unknown names: the file is refused. */
  errors: ProblemItem[];
  /** Names known only from discovery: the file applies. */
  warnings: ProblemItem[];
}

export const UNKNOWN_EVENT = 'definition.unknown_event' satisfies ProblemCode;
export const UNKNOWN_PROPERTY = 'definition.unknown_property' satisfies ProblemCode;
export const UNKNOWN_MISSION = 'definition.unknown_mission' satisfies ProblemCode;
export const UNDECLARED_EVENT = 'definition.undeclared_event' satisfies DefinitionWarningCode;
export const UNDECLARED_PROPERTY = 'definition.undeclared_property' satisfies DefinitionWarningCode;

const MAX_CLOSEST = 3;

type Path = readonly (string | number)[];

export function checkReferences(file: EnvironmentFile, known: KnownNames): ReferenceFindings {
  const findings: ReferenceFindings = { errors: [], warnings: [] };
  const check = referenceChecker(known, findings);

  file.missions?.forEach((mission, m) => {
    mission.objectives.forEach((objective, o) => {
      const at: Path = ['missions', m, 'objectives', o];
      const event = check.event(objective.event, [...at, 'event']);
      check.filters(event, objective.filters, at);
      if ('property' in objective.measure)
        check.property(event, objective.measure.property, [...at, 'measure', 'property']);
    });
  });
  file.streaks?.forEach((streak, s) => {
    streak.events.forEach((qualifying, q) => {
      const at: Path = ['streaks', s, 'events', q];
      check.filters(check.event(qualifying.event, [...at, 'event']), qualifying.filters, at);
    });
  });
  file.leaderboards?.forEach((board, b) => {
    const at: Path = ['leaderboards', b];
    const event = check.event(board.scoreSource.event, [...at, 'scoreSource', 'event']);
    if (board.scoreSource.property !== undefined)
      check.property(event, board.scoreSource.property, [...at, 'scoreSource', 'property']);
    if (board.team) check.property(event, board.team.property, [...at, 'team', 'property']);
  });
  file.missionCollections?.forEach((collection, c) => {
    collection.missions.forEach((key, i) => {
      if (known.missions.has(key)) return;
      findings.errors.push(
        finding(
          UNKNOWN_MISSION,
          `collection ${collection.key} names mission ${key}, which is not defined`,
          ['missionCollections', c, 'missions', i],
          key,
          known.missions,
        ),
      );
    });
  });
  return findings;
}

/** The event a reference resolved to, for checking its properties; undefined when it is unknown. */
interface ResolvedEvent {
  key: string;
  properties: ReadonlySet<string>;
  discovered: ReadonlySet<string>;
}

function referenceChecker(known: KnownNames, findings: ReferenceFindings) {
  const checker = {
    event(key: string, path: Path): ResolvedEvent | undefined {
      const declared = known.declared.get(key);
      const discovered = known.discovered.get(key) ?? new Set<string>();
      if (declared) return { key, properties: declared, discovered };
      if (known.discovered.has(key)) {
        findings.warnings.push(
          finding(
            UNDECLARED_EVENT,
            `event ${key} is not declared; discovery defined it from its use`,
            path,
            key,
            [],
          ),
        );
        return { key, properties: new Set(), discovered };
      }
      findings.errors.push(
        finding(UNKNOWN_EVENT, `no event ${key} is defined`, path, key, [
          ...known.declared.keys(),
          ...known.discovered.keys(),
        ]),
      );
      return undefined;
    },
    property(event: ResolvedEvent | undefined, name: string, path: Path): void {
      if (!event || event.properties.has(name)) return;
      if (event.discovered.has(name)) {
        findings.warnings.push(
          finding(
            UNDECLARED_PROPERTY,
            `property ${name} of event ${event.key} is not declared; discovery defined it from its use`,
            path,
            name,
            [],
            event.key,
          ),
        );
        return;
      }
      findings.errors.push(
        finding(
          UNKNOWN_PROPERTY,
          `event ${event.key} has no property ${name}`,
          path,
          name,
          [...event.properties, ...event.discovered],
          event.key,
        ),
      );
    },
    filters(event: ResolvedEvent | undefined, filters: readonly PropertyFilter[], at: Path): void {
      filters.forEach((filter, f) => {
        checker.property(event, filter.property, [...at, 'filters', f, 'property']);
      });
    },
  };
  return checker;
}

function finding(
  code: string,
  message: string,
  path: Path,
  name: string,
  candidates: Iterable<string>,
  event?: string,
): ProblemItem {
  return {
    code,
    message,
    meta: {
      path: path.join('.'),
      name,
      ...(event === undefined ? {} : { event }),
      ...(code.startsWith('definition.unknown_') ? { closest: closestNames(name, candidates) } : {}),
    },
  };
}

/** Up to three candidates nearest to `name` by edit distance, nearest first, none unrelated. */
export function closestNames(name: string, candidates: Iterable<string>): string[] {
  const limit = Math.max(2, Math.ceil(name.length / 3));
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, d: distance(name, candidate) }))
    .filter(({ d }) => d <= limit)
    .sort((a, b) => a.d - b.d || a.candidate.localeCompare(b.candidate))
    .slice(0, MAX_CLOSEST)
    .map(({ candidate }) => candidate);
}
