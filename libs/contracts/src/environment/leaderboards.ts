import { z } from 'zod';
import { ConditionSchema } from '../eligibility.ts';
import { KeySchema, TimestampSchema } from '../http/common.ts';
import { EventKeySchema, PropertyNameSchema } from '../http/events.ts';
import { LocalizedTextSchema } from '../localized.ts';
import { flagRepeats, shownDefinitionFields, uniqueKeys } from './definition.ts';

/**
 * Section `leaderboards` of the environment file (owner: query). A board ranks players (or teams) by
 * a score built from their accepted events, per period; see docs/leaderboards.md.
 */

export const AGGREGATIONS = ['Sum', 'Max', 'Min', 'Count', 'Latest'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** Largest magnitude of a score source's bounds (as for mission targets). */
const MAX_BOUND = 1e15;

export const ScoreSourceSchema = z
  .strictObject({
    type: z.literal('Event'),
    /** The event that scores. */
    event: EventKeySchema,
    /** The numeric property it scores with; not needed for `Count`. */
    property: PropertyNameSchema.optional(),
    /**
     * Bounds of one event's property value: an event outside them does not score on this board (a
     * value no honest play produces, e.g. from an exploit, cannot fill the top). Inclusive.
     */
    minValue: z.number().min(-MAX_BOUND).max(MAX_BOUND).optional(),
    maxValue: z.number().min(-MAX_BOUND).max(MAX_BOUND).optional(),
  })
  .meta({ id: 'LeaderboardScoreSource' });

export const PeriodScheduleSchema = z
  .strictObject({
    /**
     * `None`: one period for the whole season; `Daily`, `Weekly` (from Monday) and `Monthly` reset at
     * 00:00 UTC; `Custom`: every `everyMinutes` from `anchorUtc`.
     */
    reset: z.enum(['None', 'Daily', 'Weekly', 'Monthly', 'Custom']).default('None'),
    everyMinutes: z
      .int()
      .min(1)
      .max(366 * 24 * 60)
      .optional(),
    anchorUtc: TimestampSchema.optional(),
  })
  .refine((p) => (p.reset === 'Custom') === (p.everyMinutes !== undefined), {
    message: 'everyMinutes is required for a Custom reset and only allowed there',
    path: ['everyMinutes'],
  })
  .meta({ id: 'LeaderboardPeriodSchedule' });
export type PeriodSchedule = z.infer<typeof PeriodScheduleSchema>;

export const LeagueTierSchema = z
  .strictObject({
    key: KeySchema,
    name: LocalizedTextSchema.optional(),
    /** How many of each group move up when a period settles (ignored on the highest tier). */
    promote: z.int().min(0).max(1_000).default(0),
    /** How many of each group move down when a period settles (ignored on the lowest tier). */
    relegate: z.int().min(0).max(1_000).default(0),
  })
  .meta({ id: 'LeagueTier' });

export const LeagueSchema = z
  .strictObject({
    /** Players of one tier are split into groups of this size in the order they join the period. */
    groupSize: z.int().min(2).max(1_000),
    /** Lowest tier first; new players start in the lowest. */
    tiers: z.array(LeagueTierSchema).min(1).max(20),
  })
  .meta({ id: 'LeagueDefinition' });
export type LeagueDefinition = z.infer<typeof LeagueSchema>;

export const TeamSchema = z
  .strictObject({
    /** The string event property naming the player's team; the first one in a period fixes it. */
    property: PropertyNameSchema,
  })
  .meta({ id: 'TeamDefinition' });

export const LeaderboardDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    scoreSource: ScoreSourceSchema,
    aggregation: z.enum(AGGREGATIONS).default('Sum'),
    rankOrder: z.enum(['HighestFirst', 'LowestFirst']).default('HighestFirst'),
    /** Largest `Top` a read may ask for. */
    topSize: z.int().min(1).max(1_000).default(100),
    /** Decimal places scores are ranked and shown with (the durable record keeps them exact). */
    decimals: z.int().min(0).max(4).default(0),
    eligibility: ConditionSchema.optional(),
    /** Outside this window the board answers 404 and events do not score. */
    season: z
      .strictObject({ startsAtUtc: TimestampSchema.optional(), endsAtUtc: TimestampSchema.optional() })
      .optional(),
    period: PeriodScheduleSchema.default({ reset: 'None' }),
    isLocked: z.boolean().default(false),
    league: LeagueSchema.optional(),
    team: TeamSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.aggregation !== 'Count' && b.scoreSource.property === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['scoreSource', 'property'],
        message: `a property is required to ${b.aggregation}`,
      });
    }
    const { minValue, maxValue, property } = b.scoreSource;
    if ((minValue !== undefined || maxValue !== undefined) && property === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['scoreSource', minValue !== undefined ? 'minValue' : 'maxValue'],
        message: 'bounds apply to the scored property: name one',
      });
    }
    if (minValue !== undefined && maxValue !== undefined && minValue > maxValue) {
      ctx.addIssue({
        code: 'custom',
        path: ['scoreSource', 'maxValue'],
        message: 'maxValue is below minValue',
      });
    }
    if (b.league && b.team) {
      ctx.addIssue({
        code: 'custom',
        path: ['team'],
        message: 'a board is a league or a team board, not both',
      });
    }
    const start = b.season?.startsAtUtc;
    const end = b.season?.endsAtUtc;
    if (start && end && Date.parse(start) >= Date.parse(end)) {
      ctx.addIssue({
        code: 'custom',
        path: ['season', 'endsAtUtc'],
        message: 'the season ends before it starts',
      });
    }
    flagRepeats(
      b.league?.tiers ?? [],
      (tier) => tier.key,
      ctx,
      (i) => ['league', 'tiers', i, 'key'],
      () => 'tier key used twice',
    );
  })
  .meta({ id: 'LeaderboardDefinition' });
export type LeaderboardDefinition = z.infer<typeof LeaderboardDefinitionSchema>;

/** Section `leaderboards` (owner: query). Boards absent from the list are removed. */
export const LeaderboardsSectionSchema = z
  .array(LeaderboardDefinitionSchema)
  .max(200)
  .superRefine(uniqueKeys('leaderboard'))
  .describe('Leaderboard definitions. Boards absent from the list are removed.');
