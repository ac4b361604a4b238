import { z } from 'zod';
import { ConditionSchema } from '../eligibility.ts';
import { KeySchema, TimestampSchema } from '../http/common.ts';
import { EventKeySchema, PropertyNameSchema } from '../http/events.ts';
import { LocalizedTextSchema } from '../localized.ts';
import { flagRepeats, shownDefinitionFields, uniqueKeys } from './definition.ts';

/**
 * Sections `missions` and `missionCollections` of the environment file (owner: rules). Missions are
 * entered by reading them; their objectives then count the player's accepted events.
 */

/** A filter on one property of an event: the event counts only when every filter holds. */
export const PropertyFilterSchema = z
  .strictObject({
    property: PropertyNameSchema.describe(
      'A property of the filtered event; must be defined for that event.',
    ),
    op: z
      .enum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn'])
      .describe("How the event's value compares with value."),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))])
      .describe('The value to compare with; a list for in and notIn, one value for the other operators.'),
  })
  .refine((f) => (f.op === 'in' || f.op === 'notIn') === Array.isArray(f.value), {
    message: 'in and notIn take a list of values; the other operators one value',
  })
  .meta({ id: 'PropertyFilter' });
export type PropertyFilter = z.infer<typeof PropertyFilterSchema>;

/**
 * How matching events count toward an objective's target:
 * - `count`: each matching event adds 1;
 * - `sum`: adds the value of a number property;
 * - `max`: the largest value of a number property seen;
 * - `distinct`: the number of different values of a property (e.g. levels, maps);
 * - `occurs`: satisfied by one matching event (progress kind Boolean).
 */
const measuredProperty = PropertyNameSchema.describe(
  "The property of the objective's event measured; must be defined for that event.",
);
export const MeasureSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('count').describe('Each matching event adds 1.') }),
  z.strictObject({
    kind: z.literal('sum').describe('Adds the value of a number property.'),
    property: measuredProperty,
  }),
  z.strictObject({
    kind: z.literal('max').describe('The largest value of a number property seen.'),
    property: measuredProperty,
  }),
  z.strictObject({
    kind: z.literal('distinct').describe('The number of different values of a property (e.g. levels, maps).'),
    property: measuredProperty,
  }),
  z.strictObject({
    kind: z.literal('occurs').describe('Satisfied by one matching event (progress kind Boolean).'),
  }),
]);
export type Measure = z.infer<typeof MeasureSchema>;

/** Largest `distinct` target: the values seen are kept with the progress. */
export const MAX_DISTINCT_TARGET = 1_000;

export const ObjectiveDefinitionSchema = z
  .strictObject({
    key: KeySchema.describe(
      'Stable key of the objective within its mission: progress is kept by key across edits.',
    ),
    description: LocalizedTextSchema.optional().describe(
      'Description shown to players: a text, or translations with a default locale.',
    ),
    event: EventKeySchema.describe('The event that counts; must be defined in events (or discovered).'),
    filters: z
      .array(PropertyFilterSchema)
      .max(20)
      .default([])
      .describe('The event counts only when every filter holds.'),
    measure: MeasureSchema.default({ kind: 'count' }).describe(
      'How matching events count toward the target.',
    ),
    target: z.number().positive().max(1e15).default(1).describe('Value to reach (ignored by occurs).'),
  })
  .refine((o) => o.measure.kind !== 'distinct' || o.target <= MAX_DISTINCT_TARGET, {
    message: `a distinct objective's target is at most ${MAX_DISTINCT_TARGET}`,
    path: ['target'],
  })
  .meta({ id: 'ObjectiveDefinition' });
export type ObjectiveDefinition = z.infer<typeof ObjectiveDefinitionSchema>;

export const RewardDefinitionSchema = z
  .union([
    z.strictObject({
      points: z.int().positive().max(1_000_000_000_000).describe("Points credited to the player's balance."),
    }),
    z.strictObject({
      catalogItem: KeySchema.describe('A catalog item granted to the player (see GET /v1/player-items).'),
      value: z
        .union([z.number(), z.string(), z.boolean()])
        .default(1)
        .describe('The value granted: a number is added to what the player holds, other values replace it.'),
    }),
  ])
  .meta({ id: 'RewardDefinition' });
export type RewardDefinition = z.infer<typeof RewardDefinitionSchema>;

/**
 * When a mission starts again with a new `occurrenceNumber`: never, each UTC day, each ISO week (UTC,
 * from Monday), or after the player completed the previous occurrence (on the next read after the
 * one that showed it completed).
 */
export const RepeatSchema = z.enum(['none', 'daily', 'weekly', 'afterCompletion']);
export type Repeat = z.infer<typeof RepeatSchema>;

export const MissionDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    listed: z
      .boolean()
      .default(true)
      .describe("false: only in collections (and by key), not in the list of the player's missions."),
    objectives: z
      .array(ObjectiveDefinitionSchema)
      .min(1)
      .max(20)
      .describe('What the player does; the mission completes when every objective reaches its target.'),
    sequential: z
      .boolean()
      .default(false)
      .describe('true: an objective counts only once every objective before it is satisfied.'),
    rewards: z
      .array(RewardDefinitionSchema)
      .max(20)
      .default([])
      .describe('Granted once when the mission completes.'),
    availableFromUtc: TimestampSchema.optional().describe(
      'Before this instant the mission is not shown and nothing counts.',
    ),
    availableUntilUtc: TimestampSchema.optional().describe(
      'The deadline: afterwards the mission is gone (404) and no event counts toward it.',
    ),
    eligibility: ConditionSchema.optional().describe('Who may see and enter the mission; absent: everyone.'),
    optInMode: z
      .enum(['Automatic', 'RequiresAcceptance'])
      .default('Automatic')
      .describe(
        'Automatic: events count once the player read the mission; RequiresAcceptance: once they accepted it.',
      ),
    repeat: RepeatSchema.default('none').describe(
      'When the mission starts again: never (none), each UTC day, each ISO week, or after the player completed it.',
    ),
  })
  .superRefine((m, ctx) => {
    flagRepeats(
      m.objectives,
      (o) => o.key,
      ctx,
      (i) => ['objectives', i, 'key'],
      (o) => `objective ${o.key} twice`,
    );
    if (m.availableFromUtc && m.availableUntilUtc && m.availableFromUtc >= m.availableUntilUtc) {
      ctx.addIssue({
        code: 'custom',
        path: ['availableUntilUtc'],
        message: 'availableUntilUtc must be after availableFromUtc',
      });
    }
  })
  .meta({ id: 'MissionDefinition' });
export type MissionDefinition = z.infer<typeof MissionDefinitionSchema>;

export const MissionCollectionDefinitionSchema = z
  .strictObject({
    ...shownDefinitionFields,
    missions: z
      .array(KeySchema)
      .max(200)
      .describe("Mission keys in the collection's order; each must be a defined mission."),
  })
  .meta({ id: 'MissionCollectionDefinition' });
export type MissionCollectionDefinition = z.infer<typeof MissionCollectionDefinitionSchema>;

/** Section `missions` (owner: rules). Missions absent from the list are removed when the section is present. */
export const MissionsSectionSchema = z
  .array(MissionDefinitionSchema)
  .max(500)
  .superRefine(uniqueKeys('mission'))
  .describe('Mission definitions, in feed order. Missions absent from the list are removed.');

/** Section `missionCollections` (owner: rules). */
export const MissionCollectionsSectionSchema = z
  .array(MissionCollectionDefinitionSchema)
  .max(200)
  .superRefine(uniqueKeys('mission collection'))
  .describe('Mission collections. Collections absent from the list are removed.');

export { uniqueKeys };
