import { z } from 'zod';
import { LeaderboardsSectionSchema } from './environment/leaderboards.ts';
import { MissionCollectionsSectionSchema, MissionsSectionSchema } from './environment/missions.ts';
import { MarketplaceSectionSchema } from './environment/shop.ts';
import { StreaksSectionSchema } from './environment/streaks.ts';
import {
  EventKeySchema,
  MAX_PROPERTIES_PER_EVENT,
  PropertyNameSchema,
  PropertyTypeSchema,
} from './http/events.ts';
import { PlayerAttributesSectionSchema } from './http/players.ts';
import { ProblemItemSchema } from './http/problem.ts';

/**
 * The declarative environment file (`engage apply -f env.yaml`): everything one environment defines.
 * Each top-level section is its own schema with one owning service; the gateway applies its own
 * sections and (later) hands every other section to its owner. Unknown sections are refused, so a
 * typo never silently does nothing.
 */

export const PropertyDefinitionSchema = z
  .strictObject({
    type: PropertyTypeSchema.describe(
      'The JSON type a value must have (dateTime: an ISO 8601 instant with offset).',
    ),
    required: z.boolean().default(false).describe('true refuses an event without this property.'),
  })
  .meta({ id: 'PropertyDefinition' });
export type PropertyDefinition = z.infer<typeof PropertyDefinitionSchema>;

export const EventDefinitionSchema = z
  .strictObject({
    key: EventKeySchema.describe('The eventKey games send; missions, streaks and leaderboards name it.'),
    active: z.boolean().default(true).describe('false refuses the event when it is sent.'),
    description: z
      .string()
      .max(500)
      .optional()
      .describe('For people reading the definition; never shown to players.'),
    discovered: z
      .boolean()
      .optional()
      .describe(
        'true on an event defined by discovery (traffic), as the file is read back; absent or false: declared. Applying a file without it declares the event.',
      ),
    properties: z
      .record(PropertyNameSchema, PropertyDefinitionSchema)
      .default({})
      .refine((p) => Object.keys(p).length <= MAX_PROPERTIES_PER_EVENT, {
        message: `at most ${MAX_PROPERTIES_PER_EVENT} properties per event`,
      })
      .describe(
        'The properties the event may carry, by name; an undeclared property is refused unless discovery is on.',
      ),
  })
  .meta({ id: 'EventDefinition' });
export type EventDefinition = z.infer<typeof EventDefinitionSchema>;

/** Section `events` (owner: gateway): the events the environment accepts. */
export const EventsSectionSchema = z
  .array(EventDefinitionSchema)
  .superRefine((events, ctx) => {
    const seen = new Set<string>();
    events.forEach((event, index) => {
      if (seen.has(event.key)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'key'],
          message: `event ${event.key} is defined twice`,
        });
      }
      seen.add(event.key);
    });
  })
  .describe('Event definitions. Events absent from the list are removed when the section is present.');

/** Section `discovery` (owner: gateway): define unknown events and properties from their first use. */
export const DiscoverySectionSchema = z
  .boolean()
  .describe('When true, an unknown event or property is defined from its first occurrence.');

export type SectionOwner = 'gateway' | 'rules' | 'ledger' | 'query';

/**
 * Every section of the file with its owner. A capability adds its section here (and the owner
 * implements `PUT /internal/v1/environments/{id}/definition/{section}`; see docs/api.md).
 */
export const ENVIRONMENT_SECTIONS = {
  discovery: { owner: 'gateway', schema: DiscoverySectionSchema },
  events: { owner: 'gateway', schema: EventsSectionSchema },
  playerAttributes: { owner: 'gateway', schema: PlayerAttributesSectionSchema },
  leaderboards: { owner: 'query', schema: LeaderboardsSectionSchema },
  marketplace: { owner: 'ledger', schema: MarketplaceSectionSchema },
  missions: { owner: 'rules', schema: MissionsSectionSchema },
  missionCollections: { owner: 'rules', schema: MissionCollectionsSectionSchema },
  streaks: { owner: 'rules', schema: StreaksSectionSchema },
} as const satisfies Record<string, { owner: SectionOwner; schema: z.ZodType }>;
export type SectionName = keyof typeof ENVIRONMENT_SECTIONS;

export const ENVIRONMENT_FILE_VERSION = 1;

export const EnvironmentFileSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Optional link to this JSON Schema, for editors.'),
    version: z
      .literal(ENVIRONMENT_FILE_VERSION)
      .default(ENVIRONMENT_FILE_VERSION)
      .describe('Version of the file format; only 1 exists.'),
    discovery: ENVIRONMENT_SECTIONS.discovery.schema.optional(),
    events: ENVIRONMENT_SECTIONS.events.schema.optional(),
    playerAttributes: ENVIRONMENT_SECTIONS.playerAttributes.schema.optional(),
    leaderboards: ENVIRONMENT_SECTIONS.leaderboards.schema.optional(),
    marketplace: ENVIRONMENT_SECTIONS.marketplace.schema.optional(),
    missions: ENVIRONMENT_SECTIONS.missions.schema.optional(),
    missionCollections: ENVIRONMENT_SECTIONS.missionCollections.schema.optional(),
    streaks: ENVIRONMENT_SECTIONS.streaks.schema.optional(),
  })
  .meta({
    id: 'EnvironmentFile',
    title: 'engage environment file',
    description: 'Declarative definition of one environment. An absent section is left as it is.',
  });
export type EnvironmentFile = z.infer<typeof EnvironmentFileSchema>;
export type EnvironmentFileInput = z.input<typeof EnvironmentFileSchema>;

export const ChangeKindSchema = z.enum(['created', 'updated', 'unchanged', 'removed']);
export type ChangeKind = z.infer<typeof ChangeKindSchema>;

export const ItemChangeSchema = z
  .object({
    section: z.string(),
    key: z.string(),
    change: ChangeKindSchema,
    /** Fields that differ, for an update. */
    fields: z.array(z.string()),
  })
  .meta({ id: 'EnvironmentItemChange' });
export type ItemChange = z.infer<typeof ItemChangeSchema>;

export const EnvironmentDiffSchema = z
  .object({
    environmentId: z.uuid(),
    dryRun: z.boolean(),
    changed: z.boolean(),
    changes: z.array(ItemChangeSchema),
    /**
     * What applies but deserves a look, e.g. a reference to an event or property only discovery
     * defined (`definition.undeclared_event`, `definition.undeclared_property`, with `meta.path`).
     */
    warnings: z.array(ProblemItemSchema),
  })
  .meta({ id: 'EnvironmentDiff' });
export type EnvironmentDiff = z.infer<typeof EnvironmentDiffSchema>;

/**
 * The JSON Schema of the file (docs/schemas/environment.schema.json, served publicly at
 * /schemas/environment.json and to signed-in callers at /admin/v1/schemas/environment.json).
 */
export function environmentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(EnvironmentFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}
