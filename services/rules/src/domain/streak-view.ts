import {
  isEligible,
  type PlayerContext,
  resolveOptionalText,
  resolveText,
  type StreakSchema,
} from '@engage/contracts';
import type { StreakDefinition } from '@engage/contracts/environment/streaks.ts';
import type { z } from 'zod';
import type { EnvironmentRules } from './definitions.ts';
import { toReward } from './rewards.ts';
import { NEW_STREAK, type StreakState, streakProgress } from './streaks.ts';

export type StreakView = z.infer<typeof StreakSchema>;

/** The streaks the player sees, in feed order: switched on and eligible. */
export function visibleStreaks(rules: EnvironmentRules, player: PlayerContext): StreakDefinition[] {
  return rules.streakOrder.filter((s) => s.active && isEligible(s.eligibility, player.attributes));
}

/** A streak as the player sees it at `now`. */
export function streakView(
  streak: StreakDefinition,
  state: StreakState | undefined,
  now: number,
  languageCode: string | undefined,
): StreakView {
  const progress = streakProgress(streak, state ?? NEW_STREAK, now);
  return {
    streakKey: streak.key,
    name: resolveText(streak.name, languageCode),
    description: resolveOptionalText(streak.description, languageCode),
    images: streak.images,
    status: progress.status,
    isLocked: streak.availableFromUtc !== undefined && now < Date.parse(streak.availableFromUtc),
    currentCount: progress.currentCount,
    longestCount: progress.longestCount,
    lastQualifyingDate: progress.lastQualifyingDate,
    todayCounts: progress.todayCounts,
    runExpiresAtUtc: progress.runExpiresAtUtc,
    nextMilestoneThreshold: progress.nextMilestoneThreshold,
    milestones: progress.milestones.map(({ milestone, isReached }) => ({
      threshold: milestone.threshold,
      isReached,
      rewards: milestone.rewards.map(toReward),
      repeatsAfterReset: milestone.repeatsAfterReset,
    })),
  };
}
