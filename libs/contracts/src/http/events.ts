import { z } from 'zod';
import type { AnyProblemCode } from '../problems.ts';
import { IdempotencyKeySchema, PlayerIdSchema } from './common.ts';

/**
 * POST /v1/events (endpoint 13). The gateway parses the body itself, losslessly, and checks each
 * item on its own; these schemas document the shapes and hold the limits in one place.
 */

export const MAX_EVENT_BATCH_ITEMS = 1_000;
export const MAX_EVENT_KEY_LENGTH = 100;
export const MAX_PROPERTY_NAME_LENGTH = 100;
export const MAX_PROPERTIES_PER_EVENT = 16;
export const MAX_STRING_PROPERTY_LENGTH = 256;
/** occurredAt may be at most this far before the receipt time (late uploads, small backfills)... */
export const MAX_OCCURRED_AT_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** ...and at most this far after it (clock skew of the caller). */
export const MAX_OCCURRED_AT_LEAD_MS = 5 * 60 * 1000;
/** A number keeps up to this many decimal places... */
export const MAX_NUMBER_FRACTION_DIGITS = 8;
/** ...and up to this many digits before the point. */
export const MAX_NUMBER_INTEGER_DIGITS = 20;

/** Event keys: letters, digits and `_ . : -`, starting with a letter or digit. */
export const EVENT_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
/** Property names: letters, digits and `_`, starting with a letter. */
export const PROPERTY_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

export const EventKeySchema = z
  .string()
  .min(1)
  .max(MAX_EVENT_KEY_LENGTH)
  .regex(EVENT_KEY_PATTERN, 'must start with a letter or digit and use only A-Z a-z 0-9 _ . : -');
export const PropertyNameSchema = z
  .string()
  .min(1)
  .max(MAX_PROPERTY_NAME_LENGTH)
  .regex(PROPERTY_NAME_PATTERN, 'must start with a letter and use only A-Z a-z 0-9 _');

export const PropertyTypeSchema = z.enum(['string', 'number', 'boolean', 'dateTime']);
export type PropertyType = z.infer<typeof PropertyTypeSchema>;

export const EventItemSchema = z
  .object({
    eventKey: EventKeySchema,
    playerId: PlayerIdSchema,
    occurredAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('When the event happened (ISO-8601 with Z or an offset); receipt time when absent.'),
    properties: z
      .record(
        PropertyNameSchema,
        z.union([z.string().max(MAX_STRING_PROPERTY_LENGTH), z.number(), z.boolean()]),
      )
      .optional()
      .describe(
        `Up to ${MAX_PROPERTIES_PER_EVENT} properties. Numbers keep 8 decimal places and up to 20 digits before the point, exactly.`,
      ),
    timeZone: z
      .string()
      .optional()
      .describe("The player's IANA time zone (e.g. Europe/Paris); stored on the player."),
    idempotencyKey: IdempotencyKeySchema.optional().describe(
      'Replays of the same key for this player and event are not applied twice.',
    ),
  })
  .meta({ id: 'EventItem' });

export const EventBatchRequestSchema = z
  .object({ events: z.array(EventItemSchema).min(1).max(MAX_EVENT_BATCH_ITEMS) })
  .meta({ id: 'EventBatchRequest' });

export const EventItemErrorSchema = z
  .object({ code: z.string(), message: z.string(), meta: z.record(z.string(), z.unknown()) })
  .meta({ id: 'EventItemError' });

export const EventItemResultSchema = z
  .object({
    index: z.int().min(0),
    accepted: z.boolean(),
    eventId: z.uuid().nullable(),
    errors: z.array(EventItemErrorSchema),
  })
  .meta({ id: 'EventItemResult' });

export const EventBatchResultSchema = z
  .object({
    accepted: z.int().min(0),
    rejected: z.int().min(0),
    results: z.array(EventItemResultSchema),
  })
  .meta({ id: 'EventBatchResult' });
export type EventBatchResult = z.infer<typeof EventBatchResultSchema>;
export type EventItemResult = z.infer<typeof EventItemResultSchema>;
export type EventItemError = z.infer<typeof EventItemErrorSchema>;

/** Codes an item of a batch can be refused with (besides `validation.<field>` of the item). */
export const EVENT_ITEM_CODES = [
  'event.not_found',
  'event.inactive',
  'event.unknown_property',
  'event.required_property_missing',
  'event.property_type_mismatch',
  'event.property_value_out_of_range',
  'event.item_missing',
  'player.external_id_missing',
  'player.external_id_too_long',
  'player.time_zone_invalid',
] as const satisfies readonly AnyProblemCode[];
export type EventItemCode = (typeof EVENT_ITEM_CODES)[number];
