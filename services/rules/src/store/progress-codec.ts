import { isoMs, type MissionEntry, type ObjectiveProgress, type PlayerMissions } from '../domain/missions.ts';

/**
 * The stored form of a player's mission entries: one short array per mission instead of an object
 * with long keys and ISO texts, so a player in dozens of missions stays a small row (Postgres
 * stores it inline and uncompressed below about 2 kB).
 *
 * entry: [occurrence, enteredAt, acceptedAt, countingSince, completedAt, completionShown, objectives]
 * with times in epoch milliseconds (0 for none) and completionShown 0 or 1; an objective is its
 * value, or [value, satisfied (0/1), ...distinct values seen] when it has more than a value.
 */
type StoredObjective = number | [number, 0 | 1, ...string[]];
type StoredEntry = [number, number, number, number, number, 0 | 1, Record<string, StoredObjective>];

const toMs = (iso: string | null) => (iso === null ? 0 : isoMs(iso));
const toIso = (ms: number) => (ms === 0 ? null : new Date(ms).toISOString());

export function encodeMissions(missions: PlayerMissions): Record<string, StoredEntry> {
  const stored: Record<string, StoredEntry> = {};
  for (const [key, entry] of Object.entries(missions)) stored[key] = encodeEntry(entry);
  return stored;
}

function encodeEntry(e: MissionEntry): StoredEntry {
  const objectives: Record<string, StoredObjective> = {};
  for (const [objective, p] of Object.entries(e.objectives)) {
    objectives[objective] =
      p.seen || p.satisfied ? [p.value, p.satisfied ? 1 : 0, ...(p.seen ?? [])] : p.value;
  }
  return [
    e.occurrence,
    toMs(e.enteredAt),
    toMs(e.acceptedAt),
    toMs(e.countingSince),
    toMs(e.completedAt),
    e.completionShown ? 1 : 0,
    objectives,
  ];
}

/** The JSON text of `encodeMissions(missions)`, written directly (the consumer's hot path). */
export function encodeMissionsJson(missions: PlayerMissions): string {
  return objectJson(missions, entryJson);
}

/** `JSON.stringify(encodeEntry(e))`. */
function entryJson(e: MissionEntry): string {
  const objectives = objectJson(e.objectives, (p) =>
    p.seen || p.satisfied ? JSON.stringify([p.value, p.satisfied ? 1 : 0, ...(p.seen ?? [])]) : num(p.value),
  );
  return `[${e.occurrence},${toMs(e.enteredAt)},${toMs(e.acceptedAt)},${toMs(e.countingSince)},${toMs(e.completedAt)},${e.completionShown ? 1 : 0},${objectives}]`;
}

/** A number as JSON writes it. */
const num = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

/** A JSON object's text from its members' texts. */
function objectJson<T>(record: Record<string, T>, memberText: (value: T) => string): string {
  let text = '';
  for (const key in record) text += `${text ? ',' : '{'}${JSON.stringify(key)}:${memberText(record[key]!)}`;
  return text ? `${text}}` : '{}';
}

/** Reads the stored form back (rows written before the compact form are already entries). */
export function decodeMissions(stored: Record<string, StoredEntry | MissionEntry>): PlayerMissions {
  const missions: PlayerMissions = {};
  for (const [key, value] of Object.entries(stored)) {
    if (!Array.isArray(value)) {
      missions[key] = value;
      continue;
    }
    const [occurrence, enteredAt, acceptedAt, countingSince, completedAt, shown, objectives] = value;
    const progress: Record<string, ObjectiveProgress> = {};
    for (const [objective, p] of Object.entries(objectives)) {
      if (typeof p === 'number') {
        progress[objective] = { value: p };
        continue;
      }
      const [v, satisfied, ...seen] = p;
      progress[objective] = {
        value: v,
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
  return missions;
}
