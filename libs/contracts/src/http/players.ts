import { z } from 'zod';
import { PlayerIdSchema } from './common.ts';

/**
 * Players and their attributes. The contract names the attribute endpoint only through its error
 * codes; it is `POST /v1/players/attributes` with `playerId` in the body (the contract's convention
 * for POST). Attributes are what eligibility rules of missions, shop, leaderboards and streaks test.
 */

export const MAX_ATTRIBUTE_TEXT_LENGTH = 2_000;
export const MAX_ATTRIBUTE_KEY_LENGTH = 100;
export const MAX_ATTRIBUTES_PER_REQUEST = 100;

export const AttributeKeySchema = z
  .string()
  .min(1)
  .max(MAX_ATTRIBUTE_KEY_LENGTH)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must start with a letter and use only A-Z a-z 0-9 _');

export const AttributeTypeSchema = z.enum(['string', 'number', 'boolean', 'dateTime']);
export type AttributeType = z.infer<typeof AttributeTypeSchema>;

export const PlayerAttributeDefinitionSchema = z
  .strictObject({
    key: AttributeKeySchema.describe(
      "The attribute's name, as games set it and eligibility conditions name it.",
    ),
    type: AttributeTypeSchema.describe('The JSON type a value must have.'),
    active: z.boolean().default(true).describe('false refuses setting the attribute.'),
    description: z
      .string()
      .max(500)
      .optional()
      .describe('For people reading the definition; never shown to players.'),
  })
  .meta({ id: 'PlayerAttributeDefinition' });
export type PlayerAttributeDefinition = z.infer<typeof PlayerAttributeDefinitionSchema>;

/** Section `playerAttributes` of the environment file (owner: gateway). */
export const PlayerAttributesSectionSchema = z
  .array(PlayerAttributeDefinitionSchema)
  .superRefine((attributes, ctx) => {
    const seen = new Set<string>();
    attributes.forEach((attribute, index) => {
      if (seen.has(attribute.key)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'key'],
          message: `attribute ${attribute.key} is defined twice`,
        });
      }
      seen.add(attribute.key);
    });
  })
  .describe(
    'Player attributes the environment accepts. Attributes absent from the list are removed when the section is present (values already stored on players are kept but no longer settable).',
  );

export const AttributeValueInputSchema = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .describe(
    'A value of the defined type (dateTime: ISO-8601 text with Z or an offset); null removes the attribute.',
  );

export const SetPlayerAttributesRequestSchema = z
  .object({
    playerId: PlayerIdSchema,
    attributes: z
      .record(AttributeKeySchema, AttributeValueInputSchema)
      .describe(`1 to ${MAX_ATTRIBUTES_PER_REQUEST} attributes to set; all are written or none.`),
    timeZone: z.string().optional().describe("The player's IANA time zone (e.g. Europe/Paris)."),
  })
  .meta({ id: 'SetPlayerAttributesRequest' });

export const PlayerSchema = z
  .object({
    playerId: PlayerIdSchema,
    timeZone: z.string().nullable(),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  })
  .meta({ id: 'Player' });
export type Player = z.infer<typeof PlayerSchema>;
