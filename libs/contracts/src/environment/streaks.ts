import { z } from 'zod';
import { ConditionSchema } from '../eligibility.ts';
import { TimestampSchema } from '../http/common.ts';
import { EventKeySchema } from '../http/events.ts';
import { flagRepeats, shownDefinitionFields, uniqueKeys } from './definition.ts';
import { PropertyFilterSchema, RewardDefinitionSchema } from './missions.ts';

/**
 * Section `streaks` of the environment file (owner: rules). A streak counts consecutive periods
 * (local days or weeks of the player) in which the player sent qualifying events.
 */

export const QualifyingEventSchema = z
  .strictObject({
    event: EventKeySchema,
    filters: z.array(PropertyFilterSchema).max(20).default([]),
  })
  .meta({ id: 'QualifyingEvent' });

export const MilestoneDefinitionSchema = z
  .strictObject({
    threshold: z.int().min(1).max(100_000),
    rewards: z.array(RewardDefinitionSchema).max(20).default([]),
    /** true: reached (and rewarded) again in every new run; false: once per player. */
    repeatsAfterReset: z.boolean().default(false),
  })
  .meta({ id: 'MilestoneDefinition' });
export type MilestoneDefinition = z.infer<typeof MilestoneDefinitionSchema>;

export const StreakDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    /** Any of these events qualifies. */
    events: z.array(QualifyingEventSchema).min(1).max(20),
    /** Qualifying events needed in one period for the period to count. */
    eventsPerPeriod: z.int().min(1).max(1_000).default(1),
    /** `daily`: the player's local day; `weekly`: the player's local ISO week (Monday to Sunday). */
    period: z.enum(['daily', 'weekly']).default('daily'),
    milestones: z.array(MilestoneDefinitionSchema).max(50).default([]),
    eligibility: ConditionSchema.optional(),
    /** Before this moment the streak is shown locked (`isLocked`) and nothing counts. */
    availableFromUtc: TimestampSchema.optional(),
  })
  .superRefine((s, ctx) => {
    flagRepeats(
      s.milestones,
      (m) => m.threshold,
      ctx,
      (i) => ['milestones', i, 'threshold'],
      () => 'threshold used twice',
    );
  })
  .meta({ id: 'StreakDefinition' });
export type StreakDefinition = z.infer<typeof StreakDefinitionSchema>;

/** Section `streaks` (owner: rules). Streaks absent from the list are removed when the section is present. */
export const StreaksSectionSchema = z
  .array(StreakDefinitionSchema)
  .max(100)
  .superRefine(uniqueKeys('streak'))
  .describe('Streak definitions. Streaks absent from the list are removed.');
