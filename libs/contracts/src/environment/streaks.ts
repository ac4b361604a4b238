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
    event: EventKeySchema.describe('The event that qualifies; must be defined in events (or discovered).'),
    filters: z
      .array(PropertyFilterSchema)
      .max(20)
      .default([])
      .describe('The event qualifies only when every filter holds.'),
  })
  .meta({ id: 'QualifyingEvent' });

export const MilestoneDefinitionSchema = z
  .strictObject({
    threshold: z
      .int()
      .min(1)
      .max(100_000)
      .describe('The streak length (in periods) that reaches the milestone.'),
    rewards: z
      .array(RewardDefinitionSchema)
      .max(20)
      .default([])
      .describe('Granted when the milestone is reached.'),
    repeatsAfterReset: z
      .boolean()
      .default(false)
      .describe('true: reached (and rewarded) again in every new run; false: once per player.'),
  })
  .meta({ id: 'MilestoneDefinition' });
export type MilestoneDefinition = z.infer<typeof MilestoneDefinitionSchema>;

export const StreakDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    events: z.array(QualifyingEventSchema).min(1).max(20).describe('Any of these events qualifies.'),
    eventsPerPeriod: z
      .int()
      .min(1)
      .max(1_000)
      .default(1)
      .describe('Qualifying events needed in one period for the period to count.'),
    period: z
      .enum(['daily', 'weekly'])
      .default('daily')
      .describe("daily: the player's local day; weekly: the player's local ISO week (Monday to Sunday)."),
    milestones: z
      .array(MilestoneDefinitionSchema)
      .max(50)
      .default([])
      .describe('Streak lengths that grant rewards; each threshold once.'),
    eligibility: ConditionSchema.optional().describe(
      'Who may see the streak and count toward it; absent: everyone.',
    ),
    availableFromUtc: TimestampSchema.optional().describe(
      'Before this instant the streak is shown locked (isLocked) and nothing counts.',
    ),
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
