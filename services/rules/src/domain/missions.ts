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
 * A mission's window and calendar anchor as epoch milliseconds, computed once per definition so the
 * consumer does not parse dates for every mission of every event.
 */
export interface MissionTiming {
  repeat: MissionDefinition['repeat'];
  /** availableFromUtc, or -Infinity. */
  fromMs: number;
  /** availableUntilUtc (the deadline), or +Infinity. */
  untilMs: number;
  /** Start of occurrence 1 of a daily or weekly mission: availableFromUtc, else the anchor. */
  calendarFromMs: number;
}

export function missionTiming(mission: MissionDefinition, anchor: string): MissionTiming {
  return {
    repeat: mission.repeat,
    ...missionWindow(mission),
    calendarFromMs: Date.parse(mission.availableFromUtc ?? anchor),
  };
}

function missionWindow(mission: MissionDefinition): Pick<MissionTiming, 'fromMs' | 'untilMs'> {
  return {
    fromMs: mission.availableFromUtc ? Date.parse(mission.availableFromUtc) : -Infinity,
    untilMs: mission.availableUntilUtc ? Date.parse(mission.availableUntilUtc) : Infinity,
  };
}

/**
 * The occurrence of a daily or weekly mission at `at` (1 for the period of its anchor, UTC days and
 * ISO weeks); afterCompletion and one-off missions are not calendar-driven and answer 1.
 */
export function calendarOccurrence(mission: MissionDefinition, anchor: string, at: number): number {
  return occurrenceAt(missionTiming(mission, anchor), at);
}

function occurrenceAt(timing: MissionTiming, at: number): number {
  const from = timing.calendarFromMs;
  if (timing.repeat === 'daily') return Math.max(1, dayIndex(at) - dayIndex(from) + 1);
  if (timing.repeat === 'weekly') return Math.max(1, weekIndex(at) - weekIndex(from) + 1);
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
  return mission.active && isWithin(missionWindow(mission), at);
}

const isWithin = (window: Pick<MissionTiming, 'fromMs' | 'untilMs'>, at: number) =>
  at >= window.fromMs && at < window.untilMs;

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
  return mission.active && countsAt(missionTiming(mission, anchor), entry, Date.parse(event.receivedAt));
}

/** `counts` for an active mission's timing and an event accepted at `at` (epoch milliseconds). */
export function countsAt(timing: MissionTiming, entry: MissionEntry, at: number): boolean {
  if (!entry.countingSince || entry.completedAt) return false;
  if (at < isoMs(entry.countingSince) || !isWithin(timing, at)) return false;
  if (timing.repeat === 'daily' || timing.repeat === 'weekly')
    return occurrenceAt(timing, at) === entry.occurrence;
  return true;
}

const ISO_CACHE_SIZE = 50_000;
const isoCache = new Map<string, number>();

/**
 * Epoch milliseconds of an ISO time, remembered: entry times repeat across a player's missions (one
 * read enters them all at once) and across events, and parsing dominated the fold.
 */
export function isoMs(iso: string): number {
  let ms = isoCache.get(iso);
  if (ms === undefined) {
    ms = Date.parse(iso);
    if (isoCache.size >= ISO_CACHE_SIZE) isoCache.clear();
    isoCache.set(iso, ms);
  }
  return ms;
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
): { entry: MissionEntry; steps: readonly MissionStep[] } {
  const draft = draftEntry(entry);
  const advanced = advanceEntry(mission, draft, event);
  return advanced ? { entry: draft, steps: advanced.steps } : { entry, steps: [] };
}

/** What `advanceEntry` changed. */
export interface EntryAdvance {
  steps: readonly MissionStep[];
  /**
   * Whether anything the stored entry holds besides objective values changed: an objective
   * satisfied or seen for the first time, a distinct value added, the completion.
   */
  factsChanged: boolean;
}

/** The usual outcome of an event: values moved, nothing else (shared: it is never changed). */
const VALUES_MOVED: EntryAdvance = Object.freeze({ steps: Object.freeze([]), factsChanged: false });

/**
 * A copy of an entry that `advanceEntry` may change: its objectives map and their progress are
 * copied too (`advanceEntry` changes progress in place); distinct values seen are never changed,
 * only replaced.
 */
export function draftEntry(entry: MissionEntry): MissionEntry {
  const objectives: Record<string, ObjectiveProgress> = {};
  for (const key in entry.objectives) objectives[key] = { ...entry.objectives[key]! };
  return { ...entry, objectives };
}

/**
 * `applyEvent` on an entry the caller owns, changed in place (objective progress included):
 * undefined when the event changed nothing, else the steps taken (possibly none) and whether facts
 * besides values changed.
 */
export function advanceEntry(
  mission: MissionDefinition,
  draft: MissionEntry,
  event: CountedEvent,
): EntryAdvance | undefined {
  let steps: MissionStep[] | undefined;
  let moved = false;
  let factsChanged = false;
  const objectives = draft.objectives;
  const open = mission.sequential
    ? mission.objectives.filter((o) => !isSatisfied(o, objectives[o.key])).slice(0, 1)
    : mission.objectives;
  for (const objective of open) {
    if (objective.event !== event.eventKey) continue;
    const stored = objectives[objective.key];
    if (isSatisfied(objective, stored)) continue;
    if (!matchesFilters(objective.filters, event.properties)) continue;
    const progress = stored ?? { value: 0 };
    const change = measure(objective, progress, event.properties);
    if (change === NO_CHANGE) continue;
    moved = true;
    if (!stored) objectives[objective.key] = progress;
    if (isSatisfied(objective, progress)) {
      progress.satisfied = true;
      steps ??= [];
      steps.push({ kind: 'ObjectiveSatisfied', objectiveKey: objective.key, value: progress.value });
    }
    factsChanged ||= !stored || progress.satisfied === true || change === SEEN_CHANGED;
  }
  if (!moved) return undefined;
  // Only an objective satisfied by this event can complete the mission (`counts` let no completed
  // entry through).
  if (!steps) return factsChanged ? { steps: [], factsChanged } : VALUES_MOVED;
  const done = mission.objectives.every((o) => isSatisfied(o, objectives[o.key]));
  if (done) {
    steps.push({ kind: 'MissionCompleted' });
    draft.completedAt = event.receivedAt;
  }
  return { steps, factsChanged: true };
}

const NO_CHANGE = 0;
const VALUE_CHANGED = 1;
/** A distinct value was added: the values seen are stored with the entry, not in the counters. */
const SEEN_CHANGED = 2;

/**
 * Moves the objective's progress, in place, by one matching event. Says what changed: nothing, the
 * value, or the value and the values seen (a new array, never the old one changed).
 */
export function measure(
  objective: ObjectiveDefinition,
  progress: ObjectiveProgress,
  properties: Record<string, PropertyValue>,
): typeof NO_CHANGE | typeof VALUE_CHANGED | typeof SEEN_CHANGED {
  const m = objective.measure;
  switch (m.kind) {
    case 'count':
      progress.value += 1;
      return VALUE_CHANGED;
    case 'occurs':
      progress.value = 1;
      return VALUE_CHANGED;
    case 'sum': {
      const n = propertyNumber(properties[m.property]);
      if (n === undefined || n === 0) return NO_CHANGE;
      progress.value += n;
      return VALUE_CHANGED;
    }
    case 'max': {
      const n = propertyNumber(properties[m.property]);
      if (n === undefined || n <= progress.value) return NO_CHANGE;
      progress.value = n;
      return VALUE_CHANGED;
    }
    case 'distinct': {
      const v = propertyScalar(properties[m.property]);
      if (v === undefined) return NO_CHANGE;
      const text = String(v);
      const seen = progress.seen ?? [];
      if (seen.includes(text)) return NO_CHANGE;
      progress.seen = [...seen, text];
      progress.value = progress.seen.length;
      return SEEN_CHANGED;
    }
  }
}
