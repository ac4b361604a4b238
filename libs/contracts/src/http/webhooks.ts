import { z } from 'zod';
import { QueryInt32Schema } from './common.ts';

/**
 * Webhooks of the admin API (`/admin/v1`): endpoints an operator subscribes per environment, the
 * deliveries sent to them, and the payloads those deliveries carry (Standard Webhooks conventions).
 */

export const WEBHOOK_EVENT_TYPES = [
  'mission.completed',
  'milestone.reached',
  'streak.broken',
  'purchase.made',
  'points.adjusted',
  'leaderboard.period_settled',
  'leaderboard.rank_reached',
] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** The type of the test delivery `POST …/ping` queues; never subscribed to. */
export const WEBHOOK_PING_TYPE = 'webhook.ping';
export type WebhookDeliveryType = WebhookEventType | typeof WEBHOOK_PING_TYPE;

export const WEBHOOK_STATUSES = ['active', 'paused'] as const;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const DEFAULT_RANK_THRESHOLD = 10;
export const MAX_RANK_THRESHOLD = 1000;
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;
export const MAX_SECRET_OVERLAP_SECONDS = 604_800;
export const MAX_WEBHOOK_DELIVERIES_PER_PAGE = 100;

const timestamp = z.iso.datetime();
/**
 * An absolute http(s) URL. Whether plain http is allowed (loopback only, and only when the gateway
 * runs with WEBHOOK_ALLOW_INSECURE_URLS=true) is the gateway's check: `validation.url`.
 */
const url = z.url({ protocol: /^https?$/ }).max(2000);
const eventTypes = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, 'must not repeat an event type');
const description = z.string().max(500);
const rankThreshold = z.int().min(1).max(MAX_RANK_THRESHOLD);

export const WebhookHealthSchema = z
  .object({
    lastDeliveryAt: timestamp.nullable(),
    lastStatus: z.enum(['delivered', 'failed']).nullable(),
    /** Failed attempts since the last delivered one (reset by a delivery and by resuming). */
    consecutiveFailures: z.int(),
    pendingDeliveries: z.int(),
  })
  .meta({ id: 'WebhookHealth' });

export const WebhookEndpointSchema = z
  .object({
    id: z.uuid(),
    environmentId: z.uuid(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(WebhookEventTypeSchema),
    /** `leaderboard.rank_reached`: a settled final rank at or above this (1 is the top) is sent. */
    rankThreshold: z.int(),
    status: z.enum(WEBHOOK_STATUSES),
    pausedReason: z.string().nullable(),
    pausedAt: timestamp.nullable(),
    secretRotatedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    health: WebhookHealthSchema,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** Answered once, on creation: `secret` (`whsec_…`) is shown again only by rotate-secret. */
export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({ secret: z.string() }).meta({
  id: 'CreatedWebhookEndpoint',
});
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpointSchema>;

export const WebhookEndpointListSchema = z
  .object({ items: z.array(WebhookEndpointSchema) })
  .meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;

export const CreateWebhookSchema = z
  .strictObject({
    url,
    eventTypes,
    description: description.default(''),
    rankThreshold: rankThreshold.default(DEFAULT_RANK_THRESHOLD),
  })
  .meta({ id: 'CreateWebhook' });
export type CreateWebhook = z.input<typeof CreateWebhookSchema>;

/** Setting `status: active` resumes a paused endpoint: its kept deliveries are then sent, in order. */
export const UpdateWebhookSchema = z
  .strictObject({
    url: url.optional(),
    eventTypes: eventTypes.optional(),
    description: description.optional(),
    rankThreshold: rankThreshold.optional(),
    status: z.enum(WEBHOOK_STATUSES).optional(),
  })
  .meta({ id: 'UpdateWebhook' });
export type UpdateWebhook = z.input<typeof UpdateWebhookSchema>;

export const RotateWebhookSecretSchema = z
  .strictObject({
    /** How long deliveries stay signed with the previous secret too. 0 retires it at once. */
    overlapSeconds: z.int().min(0).max(MAX_SECRET_OVERLAP_SECONDS).default(DEFAULT_SECRET_OVERLAP_SECONDS),
  })
  .meta({ id: 'RotateWebhookSecret' });
export type RotateWebhookSecret = z.input<typeof RotateWebhookSecretSchema>;

export const RotatedWebhookSecretSchema = z
  .object({ secret: z.string(), previousSecretExpiresAt: timestamp.nullable() })
  .meta({ id: 'RotatedWebhookSecret' });
export type RotatedWebhookSecret = z.infer<typeof RotatedWebhookSecretSchema>;

export const WebhookDeliverySchema = z
  .object({
    /** Also the `webhook-id` header: the same on every attempt and replay, for the receiver to deduplicate. */
    id: z.uuid(),
    webhookId: z.uuid(),
    eventType: z.string(),
    playerId: z.string().nullable(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.int(),
    nextAttemptAt: timestamp.nullable(),
    lastAttemptAt: timestamp.nullable(),
    responseStatus: z.int().nullable(),
    responseTimeMs: z.int().nullable(),
    lastError: z.string().nullable(),
    createdAt: timestamp,
    /** The body sent: `{ id, type, timestamp, environmentId, data }`. */
    payload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const ListWebhookDeliveriesQuerySchema = z.strictObject({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  limit: QueryInt32Schema.pipe(z.int().min(1).max(MAX_WEBHOOK_DELIVERIES_PER_PAGE)).default(50),
  /** The `nextCursor` of the previous page. */
  cursor: z.string().min(1).max(200).optional(),
});
export type ListWebhookDeliveriesQuery = z.input<typeof ListWebhookDeliveriesQuerySchema>;

export const WebhookDeliveryPageSchema = z
  .object({ items: z.array(WebhookDeliverySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryPage' });
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPageSchema>;

// The payloads: what a receiver gets as `data`, per event type.

const player = { playerId: z.string() };
const movement = z.enum(['Promoted', 'Relegated', 'Stayed']).nullable();

export const WEBHOOK_PAYLOAD_DATA = {
  'mission.completed': z.object({
    ...player,
    missionKey: z.string(),
    /** 1 for the player's first completion of the mission, then 2, 3… for a repeating one. */
    occurrenceNumber: z.int(),
    completedAt: timestamp,
  }),
  'milestone.reached': z.object({
    ...player,
    streakKey: z.string(),
    /** The streak run (1 for the player's first run). */
    runNumber: z.int(),
    milestoneThreshold: z.int(),
    reachedAt: timestamp,
  }),
  'streak.broken': z.object({
    ...player,
    streakKey: z.string(),
    runNumber: z.int(),
    /** The ended run's final count. */
    finalCount: z.int().nullable(),
    /** The last local date (YYYY-MM-DD) that counted in the ended run. */
    lastCountedLocalDate: z.string().nullable(),
    brokenAt: timestamp,
  }),
  'purchase.made': z.object({
    ...player,
    /** The purchase (the purchaseId its answer carried). */
    purchaseId: z.string(),
    /** The ledger's journal entry of the charge (the purchase's transactionId); null for a free item. */
    transactionId: z.string().nullable(),
    itemKey: z.string(),
    /** The item's occurrence the purchase counts against. */
    occurrenceNumber: z.int(),
    pointsSpent: z.int(),
    balanceAfter: z.int(),
    /** What the purchase granted: each content's catalog item and its typed value. */
    contents: z.array(
      z.object({ catalogItemKey: z.string(), value: z.union([z.number(), z.string(), z.boolean()]) }),
    ),
    purchasedAt: timestamp,
  }),
  'points.adjusted': z.object({
    ...player,
    transactionId: z.string(),
    /** Signed: positive credits, negative debits. */
    amount: z.int(),
    balanceAfter: z.int(),
    reason: z.string().nullable(),
    adjustedAt: timestamp,
  }),
  'leaderboard.period_settled': z.object({
    ...player,
    leaderboardKey: z.string(),
    periodStartsAt: timestamp,
    periodEndsAt: timestamp.nullable(),
    finalRank: z.int(),
    score: z.string(),
    tierKey: z.string().nullable(),
    groupNumber: z.int().nullable(),
    /** The league move at settlement; null on a board without tiers. */
    leagueMove: movement,
    nextTierKey: z.string().nullable(),
    settledAt: timestamp,
  }),
  'leaderboard.rank_reached': z.object({
    ...player,
    leaderboardKey: z.string(),
    periodStartsAt: timestamp,
    periodEndsAt: timestamp.nullable(),
    rank: z.int(),
    /** The endpoint's `rankThreshold` the rank is within. */
    rankThreshold: z.int(),
    score: z.string(),
    settledAt: timestamp,
  }),
  'webhook.ping': z.object({ webhookId: z.uuid(), message: z.string() }),
} as const satisfies Record<WebhookDeliveryType, z.ZodType>;

export type WebhookPayloadData<T extends WebhookDeliveryType> = z.infer<(typeof WEBHOOK_PAYLOAD_DATA)[T]>;

/** The JSON body of a delivery. `id` equals the `webhook-id` header. */
export function webhookPayloadSchema<T extends WebhookDeliveryType>(type: T) {
  return z.object({
    id: z.uuid(),
    type: z.literal(type),
    /** When the change happened (ISO 8601, UTC). */
    timestamp,
    environmentId: z.uuid(),
    data: WEBHOOK_PAYLOAD_DATA[type],
  });
}

export interface WebhookPayload<T extends WebhookDeliveryType = WebhookDeliveryType> {
  id: string;
  type: T;
  timestamp: string;
  environmentId: string;
  data: WebhookPayloadData<T>;
}
