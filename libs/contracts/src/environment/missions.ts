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
    property: PropertyNameSchema,
    op: z.enum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn']),
    value: z.union([
      z.string(),
      z.number(),
      z.boolean(),
      z.array(z.union([z.string(), z.number(), z.boolean()])),
    ]),
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
export const MeasureSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('count') }),
  z.strictObject({ kind: z.literal('sum'), property: PropertyNameSchema }),
  z.strictObject({ kind: z.literal('max'), property: PropertyNameSchema }),
  z.strictObject({ kind: z.literal('distinct'), property: PropertyNameSchema }),
  z.strictObject({ kind: z.literal('occurs') }),
]);
export type Measure = z.infer<typeof MeasureSchema>;

/** Largest `distinct` target: the values seen are kept with the progress. */
export const MAX_DISTINCT_TARGET = 1_000;

export const ObjectiveDefinitionSchema = z
  .strictObject({
    /** Stable key of the objective within its mission: progress is kept by key across edits. */
    key: KeySchema,
    description: LocalizedTextSchema.optional(),
    event: EventKeySchema,
    filters: z.array(PropertyFilterSchema).max(20).default([]),
    measure: MeasureSchema.default({ kind: 'count' }),
    /** Value to reach (ignored by `occurs`). */
    target: z.number().positive().max(1e15).default(1),
  })
  .refine((o) => o.measure.kind !== 'distinct' || o.target <= MAX_DISTINCT_TARGET, {
    message: `a distinct objective's target is at most ${MAX_DISTINCT_TARGET}`,
    path: ['target'],
  })
  .meta({ id: 'ObjectiveDefinition' });
export type ObjectiveDefinition = z.infer<typeof ObjectiveDefinitionSchema>;

export const RewardDefinitionSchema = z
  .union([
    z.strictObject({ points: z.int().positive().max(1_000_000_000_000) }),
    z.strictObject({
      catalogItem: KeySchema,
      value: z.union([z.number(), z.string(), z.boolean()]).default(1),
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
    /** false: only in collections (and by key), not in the feed of endpoint 1. */
    listed: z.boolean().default(true),
    objectives: z.array(ObjectiveDefinitionSchema).min(1).max(20),
    /** true: an objective counts only once every objective before it is satisfied. */
    sequential: z.boolean().default(false),
    rewards: z.array(RewardDefinitionSchema).max(20).default([]),
    availableFromUtc: TimestampSchema.optional(),
    /** The deadline: afterwards the mission is gone (404) and no event counts toward it. */
    availableUntilUtc: TimestampSchema.optional(),
    eligibility: ConditionSchema.optional(),
    optInMode: z.enum(['Automatic', 'RequiresAcceptance']).default('Automatic'),
    repeat: RepeatSchema.default('none'),
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
    /** Mission keys in the collection's order. */
    missions: z.array(KeySchema).max(200),
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
