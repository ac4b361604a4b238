import { z } from 'zod';
import { QueryBooleanSchema, QueryInt32Schema } from './common.ts';

/**
 * The live event debugger (`GET /admin/v1/environments/{environmentId}/events/recent`): the items
 * an environment's recent `POST /v1/events` batches held, each accepted or refused with its codes.
 */

/** Most items one answer lists (the environment keeps at most RECENT_EVENTS_MAX_ITEMS). */
export const MAX_RECENT_EVENTS_PAGE = 1_000;
/** Longest player id and event key kept as sent (longer ones are cut, see `truncated`). */
export const RECENT_EVENT_TEXT_LIMIT = 200;
/** Longest JSON text of an item's properties kept (longer is cut, see `truncated`). */
export const RECENT_EVENT_PROPERTIES_LIMIT = 1_024;

export const RecentEventRefusalSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    /** Where in the item the problem lies (`playerId`, `properties.level`…), when it names one. */
    path: z.string().nullable(),
  })
  .meta({ id: 'AdminRecentEventRefusal' });
export type RecentEventRefusal = z.infer<typeof RecentEventRefusalSchema>;

export const RecentEventSchema = z
  .object({
    /** The item's place in the environment's record: the `after` cursor of a later call. */
    id: z.string(),
    receivedAt: z.iso.datetime(),
    /** As sent (null: absent or not text). */
    playerId: z.string().nullable(),
    eventKey: z.string().nullable(),
    accepted: z.boolean(),
    eventId: z.uuid().nullable(),
    /** Every reason the item was refused (empty when accepted). */
    errors: z.array(RecentEventRefusalSchema),
    /** The item's properties as JSON text (null: none sent). */
    properties: z.string().nullable(),
    /** Whether playerId, eventKey or properties were cut to their limit. */
    truncated: z.boolean(),
  })
  .meta({ id: 'AdminRecentEvent' });
export type RecentEvent = z.infer<typeof RecentEventSchema>;

export const RecentEventsQuerySchema = z.object({
  outcome: z.enum(['accepted', 'refused']).optional(),
  playerId: z.string().min(1).max(RECENT_EVENT_TEXT_LIMIT).optional(),
  /** Only items recorded after this one (an `id` of an earlier answer): what a poll has not seen. */
  after: z
    .string()
    .regex(/^\d{1,20}-\d{1,20}$/, 'must be an id of an earlier answer')
    .optional(),
  limit: QueryInt32Schema.pipe(z.int().min(1).max(MAX_RECENT_EVENTS_PAGE)).default(100),
  /** true: the caller is watching; accepted items are recorded too for RECENT_EVENTS_WATCH_TTL_MS. */
  watch: QueryBooleanSchema.optional(),
});
export type RecentEventsQuery = z.infer<typeof RecentEventsQuerySchema>;

export const RecentEventsPageSchema = z
  .object({
    /** Newest first. */
    items: z.array(RecentEventSchema),
    /** Until when accepted items are recorded (someone watches); null: only refusals are. */
    watchedUntil: z.iso.datetime().nullable(),
    /** Most items the environment keeps (older ones are dropped); 0: recording is off. */
    keeps: z.int().min(0),
  })
  .meta({ id: 'AdminRecentEventsPage' });
export type RecentEventsPage = z.infer<typeof RecentEventsPageSchema>;
