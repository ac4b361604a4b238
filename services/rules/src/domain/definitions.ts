import type {
  MissionCollectionDefinition,
  MissionDefinition,
} from '@engage/contracts/environment/missions.ts';
import type { StreakDefinition } from '@engage/contracts/environment/streaks.ts';
import { type MissionTiming, missionTiming } from './missions.ts';

/** A mission as stored: its definition, feed position and when it was first defined. */
export interface StoredMission {
  definition: MissionDefinition;
  position: number;
  /** Anchor of daily and weekly occurrences when the mission has no availableFromUtc. */
  createdAt: string;
}

/** Everything one environment defines for the rules engine, indexed for the consumer and the reads. */
export interface EnvironmentRules {
  version: number;
  missions: Map<string, StoredMission>;
  /** Missions in feed order. */
  missionOrder: StoredMission[];
  collections: Map<string, { definition: MissionCollectionDefinition; collectionId: string }>;
  streaks: Map<string, StreakDefinition>;
  streakOrder: StreakDefinition[];
  /** Active missions with an objective on the event key, with their window and anchor compiled. */
  missionsByEvent: Map<string, { definition: MissionDefinition; timing: MissionTiming }[]>;
  /** Active streaks qualified by the event key, with when they start counting (or -Infinity). */
  streaksByEvent: Map<string, { definition: StreakDefinition; fromMs: number }[]>;
}

export function indexRules(input: {
  version: number;
  missions: StoredMission[];
  collections: { definition: MissionCollectionDefinition; collectionId: string }[];
  streaks: StreakDefinition[];
}): EnvironmentRules {
  const missionOrder = [...input.missions].sort((a, b) => a.position - b.position);
  const missionsByEvent: EnvironmentRules['missionsByEvent'] = new Map();
  for (const { definition, createdAt } of missionOrder) {
    if (!definition.active) continue;
    const compiled = { definition, timing: missionTiming(definition, createdAt) };
    for (const event of new Set(definition.objectives.map((o) => o.event))) {
      push(missionsByEvent, event, compiled);
    }
  }
  const streaksByEvent: EnvironmentRules['streaksByEvent'] = new Map();
  for (const streak of input.streaks) {
    if (!streak.active) continue;
    const compiled = {
      definition: streak,
      fromMs: streak.availableFromUtc ? Date.parse(streak.availableFromUtc) : -Infinity,
    };
    for (const event of new Set(streak.events.map((e) => e.event))) push(streaksByEvent, event, compiled);
  }
  return {
    version: input.version,
    missions: new Map(missionOrder.map((m) => [m.definition.key, m])),
    missionOrder,
    collections: new Map(input.collections.map((c) => [c.definition.key, c])),
    streaks: new Map(input.streaks.map((s) => [s.key, s])),
    streakOrder: input.streaks,
    missionsByEvent,
    streaksByEvent,
  };
}

export const NO_RULES: EnvironmentRules = indexRules({
  version: 0,
  missions: [],
  collections: [],
  streaks: [],
});

function push<T>(map: Map<string, T[]>, key: string, value: T) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
