import type { MissionSchema } from '@engage/contracts';
import { resolveOptionalText, resolveText } from '@engage/contracts';
import type { MissionDefinition, ObjectiveDefinition } from '@engage/contracts/environment/missions.ts';
import type { z } from 'zod';
import { derivedUuid } from './ids.ts';
import { isSatisfied, type MissionEntry, type ObjectiveProgress, occurrenceEnd } from './missions.ts';
import { toReward } from './rewards.ts';

export type MissionView = z.infer<typeof MissionSchema>;

/**
 * The Mission resource for a player's entry. Status: `Available` while the player is entered but
 * nothing counts yet (a mission that requires acceptance, not accepted), `InProgress` while events
 * count, `Completed` once every objective is satisfied.
 */
export function missionView(
  environmentId: string,
  mission: MissionDefinition,
  anchor: string,
  entry: MissionEntry,
  languageCode: string | undefined,
): MissionView {
  const end = occurrenceEnd(mission, anchor, entry.occurrence);
  const deadline = mission.availableUntilUtc ? Date.parse(mission.availableUntilUtc) : null;
  const until = end === null ? deadline : deadline === null ? end : Math.min(end, deadline);
  return {
    missionKey: mission.key,
    name: resolveText(mission.name, languageCode),
    description: resolveOptionalText(mission.description, languageCode),
    images: mission.images,
    status: entry.completedAt ? 'Completed' : entry.countingSince ? 'InProgress' : 'Available',
    optInMode: mission.optInMode,
    isAccepted: entry.acceptedAt !== null,
    occurrenceNumber: entry.occurrence,
    objectives: mission.objectives.map((objective, index) => ({
      objectiveId: objectiveId(environmentId, mission.key, objective.key),
      description: resolveOptionalText(objective.description, languageCode),
      order: index + 1,
      isSatisfied: isSatisfied(objective, entry.objectives[objective.key]),
      progress: progressView(objective, entry.objectives[objective.key]),
    })),
    rewards: mission.rewards.map(toReward),
    startedAtUtc: entry.countingSince,
    acceptedAtUtc: entry.acceptedAt,
    completedAtUtc: entry.completedAt,
    availableUntilUtc: until === null ? null : new Date(until).toISOString(),
  };
}

/** Stable per environment, mission and objective key, so clients can keep it across edits. */
export function objectiveId(environmentId: string, missionKey: string, objectiveKey: string): string {
  return derivedUuid('objective', environmentId, missionKey, objectiveKey);
}

function progressView(objective: ObjectiveDefinition, progress: ObjectiveProgress | undefined) {
  const satisfied = isSatisfied(objective, progress);
  if (objective.measure.kind === 'occurs') {
    return {
      kind: 'Boolean' as const,
      actual: satisfied ? 1 : 0,
      operator: null,
      target: null,
      fraction: satisfied ? 1 : 0,
    };
  }
  const actual = progress?.value ?? 0;
  return {
    kind: 'TowardTarget' as const,
    actual,
    operator: 'GreaterThanOrEqual' as const,
    target: objective.target,
    fraction: satisfied ? 1 : Math.max(0, Math.min(1, actual / objective.target)),
  };
}
