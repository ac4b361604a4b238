import type { PropertyValue } from '@engage/contracts';
import type { MissionDefinition, ObjectiveDefinition } from '@engage/contracts/environment/missions.ts';
import { matchesFilters, propertyNumber, propertyScalar } from './filters.ts';

/** One objective's progress: the measured value, and the values seen by a `distinct` objective. */
export interface ObjectiveProgress {
  value: number;
  seen?: string[];
  /** Once satisfied an objective stays satisfied, even if its target is raised later. */
  satisfied?: boolean;
}

/** A player's entry into one occurrence of a mission. */
export interface MissionEntry {
  occurrence: number;
  enteredAt: string;
  acceptedAt: string | null;
  /** Events the gateway accepted from this moment on count (entry or acceptance); null: not yet. */
  countingSince: string | null;
  completedAt: string | null;
  /** An afterCompletion mission: a read has shown the completed occurrence. */
  completionShown: boolean;
  objectives: Record<string, ObjectiveProgress>;
}

/** Every mission entry of one player, by mission key. */
export type PlayerMissions = Record<string, MissionEntry>;

const DAY_MS = 86_400_000;
const dayIndex = (ms: number) => Math.floor(ms / DAY_MS);
/** ISO weeks from Monday: 1970-01-01 was a Thursday. */
const weekIndex = (ms: number) => Math.floor((dayIndex(ms) + 3) / 7);

/**
 * The occurrence of a daily or weekly mission at `at` (1 for the period of its anchor, UTC days and
 * ISO weeks); afterCompletion and one-off missions are not calendar-driven and answer 1.
 */
export function calendarOccurrence(mission: MissionDefinition, anchor: string, at: number): number {
  const from = Date.parse(mission.availableFromUtc ?? anchor);
  if (mission.repeat === 'daily') return Math.max(1, dayIndex(at) - dayIndex(from) + 1);
  if (mission.repeat === 'weekly') return Math.max(1, weekIndex(at) - weekIndex(from) + 1);
  return 1;
}

/** When the given calendar occurrence ends (null for missions without calendar occurrences). */
export function occurrenceEnd(mission: MissionDefinition, anchor: string, occurrence: number): number | null {
  const from = Date.parse(mission.availableFromUtc ?? anchor);
  if (mission.repeat === 'daily') return (dayIndex(from) + occurrence) * DAY_MS;
  if (mission.repeat === 'weekly') return ((weekIndex(from) + occurrence) * 7 - 3) * DAY_MS;
  return null;
}

/** Whether the mission is open at `at`: switched on, started, and before its deadline. */
export function isOpen(mission: MissionDefinition, at: number): boolean {
  if (!mission.active) return false;
  if (mission.availableFromUtc && at < Date.parse(mission.availableFromUtc)) return false;
  return !(mission.availableUntilUtc && at >= Date.parse(mission.availableUntilUtc));
}

/**
 * The entry a read leaves the player with: a new entry when the player has none, when a daily or
 * weekly mission moved to a new occurrence, or when an afterCompletion mission was completed and a
 * read already showed it completed. Returns the current entry when nothing changes.
 */
export function enterOnRead(
  mission: MissionDefinition,
  anchor: string,
  current: MissionEntry | undefined,
  now: number,
): { entry: MissionEntry; entered: boolean; changed: boolean } {
  const at = new Date(now).toISOString();
  const fresh = (occurrence: number): MissionEntry => ({
    occurrence,
    enteredAt: at,
    acceptedAt: null,
    countingSince: mission.optInMode === 'Automatic' ? at : null,
    completedAt: null,
    completionShown: false,
    objectives: {},
  });
  if (!current)
    return { entry: fresh(calendarOccurrence(mission, anchor, now)), entered: true, changed: true };
  if (mission.repeat === 'daily' || mission.repeat === 'weekly') {
    const occurrence = calendarOccurrence(mission, anchor, now);
    if (occurrence > current.occurrence) return { entry: fresh(occurrence), entered: true, changed: true };
  }
  if (mission.repeat === 'afterCompletion' && current.completedAt) {
    if (current.completionShown)
      return { entry: fresh(current.occurrence + 1), entered: true, changed: true };
    return { entry: { ...current, completionShown: true }, entered: false, changed: true };
  }
  return { entry: current, entered: false, changed: false };
}

/** The facts of an accepted event that missions read. */
export interface CountedEvent {
  eventId: string;
  eventKey: string;
  receivedAt: string;
  properties: Record<string, PropertyValue>;
}

export type MissionStep =
  | { kind: 'ObjectiveSatisfied'; objectiveKey: string; value: number }
  | { kind: 'MissionCompleted' };

/** Whether `event` counts toward the player's entry: counting, not completed, open, same occurrence. */
export function counts(
  mission: MissionDefinition,
  anchor: string,
  entry: MissionEntry,
  event: CountedEvent,
): boolean {
  if (!entry.countingSince || entry.completedAt) return false;
  const at = Date.parse(event.receivedAt);
  if (at < Date.parse(entry.countingSince) || !isOpen(mission, at)) return false;
  if (mission.repeat === 'daily' || mission.repeat === 'weekly') {
    return calendarOccurrence(mission, anchor, at) === entry.occurrence;
  }
  return true;
}

export function isSatisfied(
  objective: ObjectiveDefinition,
  progress: ObjectiveProgress | undefined,
): boolean {
  if (!progress) return false;
  if (progress.satisfied) return true;
  return objective.measure.kind === 'occurs' ? progress.value >= 1 : progress.value >= objective.target;
}

/**
 * Applies one event to an entry (which must count it, see `counts`): each objective on the event
 * whose filters hold advances by its measure; in a sequential mission only the first unsatisfied
 * objective is open. When every objective is satisfied the entry completes at the event's
 * acceptance time. Returns the new entry and the steps taken.
 */
export function applyEvent(
  mission: MissionDefinition,
  entry: MissionEntry,
  event: CountedEvent,
): { entry: MissionEntry; steps: MissionStep[] } {
  const steps: MissionStep[] = [];
  const objectives = { ...entry.objectives };
  let changed = false;
  const open = mission.sequential
    ? mission.objectives.filter((o) => !isSatisfied(o, objectives[o.key])).slice(0, 1)
    : mission.objectives;
  for (const objective of open) {
    if (objective.event !== event.eventKey || isSatisfied(objective, objectives[objective.key])) continue;
    if (!matchesFilters(objective.filters, event.properties)) continue;
    const before = objectives[objective.key] ?? { value: 0 };
    const after = measure(objective, before, event.properties);
    if (after === before) continue;
    if (isSatisfied(objective, after)) {
      after.satisfied = true;
      steps.push({ kind: 'ObjectiveSatisfied', objectiveKey: objective.key, value: after.value });
    }
    objectives[objective.key] = after;
    changed = true;
  }
  if (!changed) return { entry, steps };
  const done = mission.objectives.every((o) => isSatisfied(o, objectives[o.key]));
  if (done) steps.push({ kind: 'MissionCompleted' });
  return { entry: { ...entry, objectives, completedAt: done ? event.receivedAt : null }, steps };
}

/** The objective's progress after one matching event; the same object when the event adds nothing. */
export function measure(
  objective: ObjectiveDefinition,
  before: ObjectiveProgress,
  properties: Record<string, PropertyValue>,
): ObjectiveProgress {
  const m = objective.measure;
  switch (m.kind) {
    case 'count':
      return { value: before.value + 1 };
    case 'occurs':
      return { value: 1 };
    case 'sum': {
      const n = propertyNumber(properties[m.property]);
      return n === undefined || n === 0 ? before : { value: before.value + n };
    }
    case 'max': {
      const n = propertyNumber(properties[m.property]);
      return n === undefined || n <= before.value ? before : { value: n };
    }
    case 'distinct': {
      const v = propertyScalar(properties[m.property]);
      if (v === undefined) return before;
      const text = String(v);
      const seen = before.seen ?? [];
      return seen.includes(text) ? before : { value: seen.length + 1, seen: [...seen, text] };
    }
  }
}
