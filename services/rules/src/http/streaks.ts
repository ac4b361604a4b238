import {
  isEligible,
  LocalizedPlayerQuerySchema,
  resolveOptionalText,
  resolveText,
  StreakSchema,
} from '@engage/contracts';
import type { StreakDefinition } from '@engage/contracts/environment/streaks.ts';
import { environmentOf, type HttpApp, notFound, playerOf } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { toReward } from '../domain/rewards.ts';
import { NEW_STREAK, type StreakState, streakProgress } from '../domain/streaks.ts';
import type { RulesCache } from '../store/definitions.ts';
import { findProgress } from '../store/progress.ts';

const StreakParamsSchema = z.object({ streakKey: z.string().min(1) });

type StreakView = z.infer<typeof StreakSchema>;

/**
 * Endpoints 11 and 12: the player's streaks as they stand now. Unknown, switched-off and hidden
 * streaks answer the same 404. Reading a streak writes nothing.
 */
export function streakRoutes(app: HttpApp, deps: { pool: Pool; rules: RulesCache }): void {
  const visibleStreaks = async (request: Parameters<typeof environmentOf>[0]) => {
    const env = environmentOf(request);
    const player = playerOf(request);
    const rules = await deps.rules.one(deps.pool, env.environmentId);
    const visible = rules.streakOrder.filter((s) => s.active && isEligible(s.eligibility, player.attributes));
    return {
      visible,
      load: () => findProgress(deps.pool, { environmentId: env.environmentId, playerId: player.id }),
    };
  };

  app.get(
    '/v1/streaks',
    { schema: { querystring: LocalizedPlayerQuerySchema, response: { 200: z.array(StreakSchema) } } },
    async (request) => {
      const { visible, load } = await visibleStreaks(request);
      if (visible.length === 0) return [];
      const progress = await load();
      const now = Date.now();
      return visible.map((s) => streakView(s, progress.streaks[s.key], now, request.query.LanguageCode));
    },
  );

  app.get(
    '/v1/streaks/:streakKey',
    {
      schema: {
        params: StreakParamsSchema,
        querystring: LocalizedPlayerQuerySchema,
        response: { 200: StreakSchema },
      },
    },
    async (request) => {
      const { visible, load } = await visibleStreaks(request);
      const streak = visible.find((s) => s.key === request.params.streakKey);
      if (!streak)
        throw notFound('streak.not_found', `No streak '${request.params.streakKey}' for this player.`);
      const progress = await load();
      return streakView(streak, progress.streaks[streak.key], Date.now(), request.query.LanguageCode);
    },
  );
}

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
