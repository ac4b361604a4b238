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
    type: z.literal('Event').describe('Scores come from accepted events (the only source).'),
    event: EventKeySchema.describe('The event that scores; must be defined in events (or discovered).'),
    property: PropertyNameSchema.optional().describe(
      "The event's numeric property it scores with; not needed for Count.",
    ),
    // A value no honest play produces (e.g. from an exploit) cannot fill the top.
    minValue: z
      .number()
      .min(-MAX_BOUND)
      .max(MAX_BOUND)
      .optional()
      .describe(
        'Lowest property value that scores (inclusive); an event below it does not score on this board.',
      ),
    maxValue: z
      .number()
      .min(-MAX_BOUND)
      .max(MAX_BOUND)
      .optional()
      .describe(
        'Highest property value that scores (inclusive); an event above it does not score on this board.',
      ),
  })
  .meta({ id: 'LeaderboardScoreSource' });

export const PeriodScheduleSchema = z
  .strictObject({
    reset: z
      .enum(['None', 'Daily', 'Weekly', 'Monthly', 'Custom'])
      .default('None')
      .describe(
        'None: one period for the whole season; Daily, Weekly (from Monday) and Monthly reset at 00:00 UTC; Custom: every everyMinutes from anchorUtc.',
      ),
    everyMinutes: z
      .int()
      .min(1)
      .max(366 * 24 * 60)
      .optional()
      .describe('Length of a Custom period in minutes; required for Custom and only allowed there.'),
    anchorUtc: TimestampSchema.optional().describe(
      'When the first Custom period starts (default 1970-01-01T00:00:00Z).',
    ),
  })
  .refine((p) => (p.reset === 'Custom') === (p.everyMinutes !== undefined), {
    message: 'everyMinutes is required for a Custom reset and only allowed there',
    path: ['everyMinutes'],
  })
  .meta({ id: 'LeaderboardPeriodSchedule' });
export type PeriodSchedule = z.infer<typeof PeriodScheduleSchema>;

export const LeagueTierSchema = z
  .strictObject({
    key: KeySchema.describe('Stable key of the tier, unique within the league.'),
    name: LocalizedTextSchema.optional().describe(
      'Name shown to players: a text, or translations with a default locale.',
    ),
    promote: z
      .int()
      .min(0)
      .max(1_000)
      .default(0)
      .describe('How many of each group move up when a period settles (ignored on the highest tier).'),
    relegate: z
      .int()
      .min(0)
      .max(1_000)
      .default(0)
      .describe('How many of each group move down when a period settles (ignored on the lowest tier).'),
  })
  .meta({ id: 'LeagueTier' });

export const LeagueSchema = z
  .strictObject({
    groupSize: z
      .int()
      .min(2)
      .max(1_000)
      .describe('Players of one tier are split into groups of this size in the order they join the period.'),
    tiers: z
      .array(LeagueTierSchema)
      .min(1)
      .max(20)
      .describe('Lowest tier first; new players start in the lowest.'),
  })
  .meta({ id: 'LeagueDefinition' });
export type LeagueDefinition = z.infer<typeof LeagueSchema>;

export const TeamSchema = z
  .strictObject({
    property: PropertyNameSchema.describe(
      "The scored event's string property naming the player's team; the first one in a period fixes it.",
    ),
  })
  .meta({ id: 'TeamDefinition' });

export const LeaderboardDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    scoreSource: ScoreSourceSchema.describe('Which events score, and with which property.'),
    aggregation: z
      .enum(AGGREGATIONS)
      .default('Sum')
      .describe(
        "How a player's scoring events in a period make their score: Sum, Max, Min, Count or Latest.",
      ),
    rankOrder: z
      .enum(['HighestFirst', 'LowestFirst'])
      .default('HighestFirst')
      .describe('Which scores rank first.'),
    topSize: z.int().min(1).max(1_000).default(100).describe('Largest Top a read may ask for.'),
    decimals: z
      .int()
      .min(0)
      .max(4)
      .default(0)
      .describe('Decimal places scores are ranked and shown with (the durable record keeps them exact).'),
    eligibility: ConditionSchema.optional().describe(
      'Who may see the board and score on it; absent: everyone.',
    ),
    season: z
      .strictObject({
        startsAtUtc: TimestampSchema.optional().describe(
          'Start of the season (inclusive); absent: always started.',
        ),
        endsAtUtc: TimestampSchema.optional().describe('End of the season (exclusive); absent: never ends.'),
      })
      .optional()
      .describe('Outside this window the board answers 404 and events do not score.'),
    period: PeriodScheduleSchema.default({ reset: 'None' }).describe(
      'When the board resets into a new period.',
    ),
    isLocked: z
      .boolean()
      .default(false)
      .describe('Returned to players as it is (a game may show the board locked); changes nothing else.'),
    league: LeagueSchema.optional().describe(
      'Makes the board a league: tiers of groups, with promotion and relegation.',
    ),
    team: TeamSchema.optional().describe(
      "Makes the board rank teams; a team's score is the sum of its members' scores.",
    ),
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
