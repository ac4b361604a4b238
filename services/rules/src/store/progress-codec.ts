import { isoMs, type ObjectiveProgress, type PlayerMissions } from '../domain/missions.ts';

/**
 * The stored form of a player's mission entries, in two parts so that an event, which in almost
 * every case only moves objective values, rewrites a few hundred bytes instead of the whole entries:
 *
 * - entries (rarely change): one short array per mission,
 *   [occurrence, enteredAt, acceptedAt, countingSince, completedAt, completionShown, objectives],
 *   with times in epoch milliseconds (0 for none) and completionShown 0 or 1; an objective is its
 *   slot, or [slot, satisfied (0/1), ...distinct values seen] when it has more than a value;
 * - counters (change with every counted event): one JSON array holding every objective's value at
 *   its slot.
 *
 * The layout (which objective each slot holds) is fixed by the entries: as long as they are not
 * rewritten, new values are written at the same slots. It holds the objectives' progress objects
 * themselves, which the consumer's fold changes in place (see `advanceEntry`), so writing the
 * counters looks nothing up.
 */
type StoredObjective = number | [number, 0 | 1, ...string[]];
type StoredEntry = [number, number, number, number, number, 0 | 1, Record<string, StoredObjective>];
export type StoredEntries = Record<string, StoredEntry>;
export type StoredCounters = (number | null)[];

/** Slot → the progress object of the objective whose value the slot holds. */
export type CounterLayout = readonly ObjectiveProgress[];

const toMs = (iso: string | null) => (iso === null ? 0 : isoMs(iso));
const toIso = (ms: number) => (ms === 0 ? null : new Date(ms).toISOString());

/** The entries' JSON text (slots numbered in iteration order) and the layout of their counters. */
export function encodeEntries(missions: PlayerMissions): { json: string; layout: CounterLayout } {
  const layout: ObjectiveProgress[] = [];
  let text = '';
  for (const key in missions) {
    const e = missions[key]!;
    let objectives = '';
    for (const objective in e.objectives) {
      const p = e.objectives[objective]!;
      const slot = layout.push(p) - 1;
      const stored =
        p.seen || p.satisfied ? JSON.stringify([slot, p.satisfied ? 1 : 0, ...(p.seen ?? [])]) : slot;
      objectives += `${objectives ? ',' : '{'}${JSON.stringify(objective)}:${stored}`;
    }
    objectives = objectives ? `${objectives}}` : '{}';
    const entry = `[${e.occurrence},${toMs(e.enteredAt)},${toMs(e.acceptedAt)},${toMs(e.countingSince)},${toMs(e.completedAt)},${e.completionShown ? 1 : 0},${objectives}]`;
    text += `${text ? ',' : '{'}${JSON.stringify(key)}:${entry}`;
  }
  return { json: text ? `${text}}` : '{}', layout };
}

/** Each slot's objective value (null for a value JSON cannot hold), for a statement's JSON parameter. */
export function counterValues(layout: CounterLayout): StoredCounters {
  return layout.map(({ value }) => (Number.isFinite(value) ? value : null));
}

/** The counters' JSON text: each slot's objective value. */
export function encodeCounters(layout: CounterLayout): string {
  return JSON.stringify(counterValues(layout));
}

/** The entries and counters read back, with the layout they were written in. */
export function decodeMissions(
  entries: StoredEntries,
  counters: StoredCounters,
): { missions: PlayerMissions; layout: CounterLayout } {
  const missions: PlayerMissions = {};
  const layout: ObjectiveProgress[] = [];
  for (const key in entries) {
    const [occurrence, enteredAt, acceptedAt, countingSince, completedAt, shown, objectives] = entries[key]!;
    const progress: Record<string, ObjectiveProgress> = {};
    for (const objective in objectives) {
      const p = objectives[objective]!;
      const [slot, satisfied, ...seen] = typeof p === 'number' ? [p, 0] : p;
      progress[objective] = layout[slot] = {
        value: counters[slot] as number,
        ...(seen.length > 0 ? { seen } : {}),
        ...(satisfied ? { satisfied: true } : {}),
      };
    }
    missions[key] = {
      occurrence,
      enteredAt: toIso(enteredAt)!,
      acceptedAt: toIso(acceptedAt),
      countingSince: toIso(countingSince),
      completedAt: toIso(completedAt),
      completionShown: shown === 1,
      objectives: progress,
    };
  }
  return { missions, layout };
}
