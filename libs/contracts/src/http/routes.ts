import { z } from 'zod';
import type { ProblemCode } from '../problems.ts';
import { LocalizedPlayerQuerySchema, PlayerQuerySchema } from './common.ts';
import { EventBatchRequestSchema, EventBatchResultSchema } from './events.ts';
import { PlayerSchema, SetPlayerAttributesRequestSchema } from './players.ts';
import {
  LeaderboardQuerySchema,
  LeaderboardViewSchema,
  MarketplaceCollectionSchema,
  MarketplaceItemSchema,
  MarketplaceItemsQuerySchema,
  MissionCollectionSchema,
  MissionRequestSchema,
  MissionSchema,
  PlayerItemSchema,
  PlayerItemsQuerySchema,
  PointsAdjustmentRequestSchema,
  PointsAdjustmentResultSchema,
  PointsBalanceSchema,
  PurchaseRequestSchema,
  PurchaseResultSchema,
  StreakSchema,
} from './resources.ts';

/**
 * The route catalog of the public /v1 API: one source of truth for which service owns each route,
 * what it takes and answers, and which error codes it can give. The gateway registers its
 * forwarding routes from it and the OpenAPI document (docs/openapi.json) is generated from it.
 */

export type RouteOwner = 'gateway' | 'rules' | 'ledger' | 'query';

/** A code a /v1 route can answer (its status and detail are in the problem catalog). */
export type ErrorCode = ProblemCode;

/** Codes any authenticated /v1 route can answer. */
export const COMMON_ERROR_CODES: readonly ErrorCode[] = [
  'validation.request',
  'auth.api_key_invalid',
  'billing_required',
  'billing_payment_overdue',
  'project_environment.not_found',
  'player.external_id_missing',
  'player.external_id_too_long',
  'tenant.too_many_concurrent_requests',
  'server.unexpected',
];

const LIMIT_CODES: readonly ErrorCode[] = [
  'sandbox.monthly_active_players_exceeded',
  'sandbox.daily_event_limit_exceeded',
  'monthly_mau_limit_exceeded',
];

export interface RouteDefinition {
  /** operationId in the OpenAPI document. */
  readonly id: string;
  /** Number of the endpoint in the API contract; absent for a route it names only through error codes. */
  readonly endpoint?: number;
  readonly method: 'GET' | 'POST';
  /** OpenAPI-style path: `/v1/missions/{missionKey}`. */
  readonly path: string;
  readonly owner: RouteOwner;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** Where the request names its player: the PlayerId query parameter or the playerId body field. */
  readonly player: 'query' | 'body' | 'items';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
  /** Codes of this route besides COMMON_ERROR_CODES. */
  readonly errors: readonly ErrorCode[];
  /** Answers that a cache must never store (endpoints that write). */
  readonly noStore?: boolean;
  /** Takes an idempotency key in the body; a replay answers the stored outcome with Idempotent-Replayed. */
  readonly replaysByKey?: boolean;
}

const key = (name: string) => z.object({ [name]: z.string().min(1).max(200) });

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'listMissions',
    endpoint: 1,
    method: 'POST',
    path: '/v1/missions',
    owner: 'rules',
    tag: 'Missions',
    summary: "The player's missions; enters the player into those they became eligible for.",
    player: 'body',
    body: MissionRequestSchema,
    response: z.array(MissionSchema),
    errors: [],
    noStore: true,
  },
  {
    id: 'getMission',
    endpoint: 2,
    method: 'POST',
    path: '/v1/missions/{missionKey}',
    owner: 'rules',
    tag: 'Missions',
    summary: 'One mission, as the feed returns it (also one that is only in a collection).',
    player: 'body',
    params: key('missionKey'),
    body: MissionRequestSchema,
    response: MissionSchema,
    errors: ['mission.not_found'],
    noStore: true,
  },
  {
    id: 'getMissionCollection',
    endpoint: 3,
    method: 'POST',
    path: '/v1/mission-collections/{collectionKey}',
    owner: 'rules',
    tag: 'Missions',
    summary: "A mission collection with its missions in the collection's order.",
    player: 'body',
    params: key('collectionKey'),
    body: MissionRequestSchema,
    response: MissionCollectionSchema,
    errors: ['mission_collection.not_found'],
    noStore: true,
  },
  {
    id: 'acceptMission',
    method: 'POST',
    path: '/v1/missions/{missionKey}/accept',
    owner: 'rules',
    tag: 'Missions',
    summary: 'Accepts a mission whose opt-in mode is RequiresAcceptance; its objectives count from then on.',
    description:
      'A mission the player cannot see now (unknown, switched off, hidden, past its deadline or not ' +
      'started) is mission.not_found, as on endpoint 2, unless the player was entered into it. ' +
      'The player must have been entered into the mission by reading it (endpoints 1 to 3). Accepting ' +
      'again answers the mission as it is, with the first acceptance time. An Automatic mission counts ' +
      'without acceptance and answers as it is.',
    player: 'body',
    params: key('missionKey'),
    body: MissionRequestSchema,
    response: MissionSchema,
    errors: ['mission.not_found', 'mission.not_locked_in', 'mission.window_closed'],
    noStore: true,
  },
  {
    id: 'listMarketplaceItems',
    endpoint: 4,
    method: 'GET',
    path: '/v1/marketplace-items',
    owner: 'ledger',
    tag: 'Marketplace',
    summary: 'What the player can see in the shop now.',
    player: 'query',
    query: MarketplaceItemsQuerySchema,
    response: z.array(MarketplaceItemSchema),
    errors: [],
  },
  {
    id: 'getMarketplaceItem',
    endpoint: 5,
    method: 'GET',
    path: '/v1/marketplace-items/{marketplaceItemKey}',
    owner: 'ledger',
    tag: 'Marketplace',
    summary: 'One shop item, as the shop lists it (also one that is only in a collection).',
    player: 'query',
    params: key('marketplaceItemKey'),
    query: LocalizedPlayerQuerySchema,
    response: MarketplaceItemSchema,
    errors: ['marketplace_item.not_found'],
  },
  {
    id: 'getMarketplaceCollection',
    endpoint: 6,
    method: 'GET',
    path: '/v1/marketplace-collections/{collectionKey}',
    owner: 'ledger',
    tag: 'Marketplace',
    summary: 'A curated collection of shop items, in the order set.',
    player: 'query',
    params: key('collectionKey'),
    query: LocalizedPlayerQuerySchema,
    response: MarketplaceCollectionSchema,
    errors: ['marketplace_collection.not_found'],
  },
  {
    id: 'purchaseMarketplaceItem',
    endpoint: 7,
    method: 'POST',
    path: '/v1/marketplace-items/{marketplaceItemKey}/purchases',
    owner: 'ledger',
    tag: 'Marketplace',
    summary: 'Buys an item with points; a replay with the same idempotency key returns the same purchase.',
    player: 'body',
    params: key('marketplaceItemKey'),
    body: PurchaseRequestSchema,
    response: PurchaseResultSchema,
    errors: [
      'marketplace_item.not_found',
      'marketplace_item.inactive',
      'marketplace_item.not_available',
      'marketplace_item.not_eligible',
      'marketplace_item.out_of_stock',
      'marketplace_item.purchase_limit_reached',
      'marketplace_item.price_changed',
      'marketplace_purchase.idempotency_key_conflict',
      'points.insufficient_balance',
      'points.concurrent_update',
      'player.not_found',
    ],
    noStore: true,
    replaysByKey: true,
  },
  {
    id: 'getPointsBalance',
    endpoint: 8,
    method: 'GET',
    path: '/v1/points',
    owner: 'ledger',
    tag: 'Points',
    summary: "The player's points balance (zero for a player never seen).",
    player: 'query',
    query: PlayerQuerySchema,
    response: PointsBalanceSchema,
    errors: [],
  },
  {
    id: 'adjustPoints',
    endpoint: 9,
    method: 'POST',
    path: '/v1/points/adjustments',
    owner: 'ledger',
    tag: 'Points',
    summary: 'Credits or debits the balance by hand and records why.',
    player: 'body',
    body: PointsAdjustmentRequestSchema,
    response: PointsAdjustmentResultSchema,
    errors: [
      'points_adjustment.amount_zero',
      'points_adjustment.reason_too_long',
      'points_adjustment.idempotency_key_conflict',
      'points.insufficient_balance',
      'points.concurrent_update',
    ],
    noStore: true,
    replaysByKey: true,
  },
  {
    id: 'listPlayerItems',
    method: 'GET',
    path: '/v1/player-items',
    owner: 'ledger',
    tag: 'Points',
    summary: 'The catalog items granted to the player by purchases and rewards, newest first.',
    description:
      "Not in the contract: the record of what a purchase's contents and mission or streak rewards " +
      'granted, so the game server can deliver them. Take caps the list (default and maximum 1000).',
    player: 'query',
    query: PlayerItemsQuerySchema,
    response: z.array(PlayerItemSchema),
    errors: [],
  },
  {
    id: 'getLeaderboard',
    endpoint: 10,
    method: 'GET',
    path: '/v1/leaderboards/{leaderboardKey}',
    owner: 'query',
    tag: 'Leaderboards',
    summary: 'A leaderboard: the top, the neighbours around the player and named players.',
    player: 'query',
    params: key('leaderboardKey'),
    query: LeaderboardQuerySchema,
    response: LeaderboardViewSchema,
    errors: ['leaderboard.not_found'],
  },
  {
    id: 'listStreaks',
    endpoint: 11,
    method: 'GET',
    path: '/v1/streaks',
    owner: 'rules',
    tag: 'Streaks',
    summary: "The player's streaks: live run, longest run, expiry and next milestone.",
    player: 'query',
    query: LocalizedPlayerQuerySchema,
    response: z.array(StreakSchema),
    errors: [],
  },
  {
    id: 'getStreak',
    endpoint: 12,
    method: 'GET',
    path: '/v1/streaks/{streakKey}',
    owner: 'rules',
    tag: 'Streaks',
    summary: 'One streak of the player.',
    player: 'query',
    params: key('streakKey'),
    query: LocalizedPlayerQuerySchema,
    response: StreakSchema,
    errors: ['streak.not_found'],
  },
  {
    id: 'sendEvents',
    endpoint: 13,
    method: 'POST',
    path: '/v1/events',
    owner: 'gateway',
    tag: 'Events',
    summary: 'Sends a batch of 1 to 1,000 player events; each item is accepted or refused on its own.',
    description:
      'Answers 200 whenever the batch is well formed: check `rejected` or each result. Per-item codes: ' +
      'event.not_found, event.inactive, event.unknown_property, event.required_property_missing, ' +
      'event.property_type_mismatch, event.property_value_out_of_range, event.item_missing, ' +
      'player.external_id_missing, player.external_id_too_long, player.time_zone_invalid.',
    player: 'items',
    body: EventBatchRequestSchema,
    response: EventBatchResultSchema,
    errors: ['event_batch.empty', 'event_batch.too_large', 'event_batch.concurrent_update', ...LIMIT_CODES],
    noStore: true,
  },
  {
    id: 'setPlayerAttributes',
    method: 'POST',
    path: '/v1/players/attributes',
    owner: 'gateway',
    tag: 'Players',
    summary: "Sets some of a player's attributes (all or none); creates the player on first sight.",
    description:
      'Each key must be an active attribute of the environment (section playerAttributes of the ' +
      'environment file) and each value of its type; null removes the attribute. One bad key writes ' +
      'nothing, and every problem is listed in errors. Answers the player with all its attributes.',
    player: 'body',
    body: SetPlayerAttributesRequestSchema,
    response: PlayerSchema,
    errors: [
      'player.time_zone_invalid',
      'player_attribute.not_found',
      'player_attribute.inactive',
      'player_attribute.type_mismatch',
      'player_attribute.value_too_long',
      'player_attribute.attributes_missing',
      'player_attribute.concurrent_update',
      ...LIMIT_CODES,
    ],
    noStore: true,
  },
];

/** Every code a route can answer, common ones first. */
export function routeErrorCodes(route: RouteDefinition): ErrorCode[] {
  return [...new Set([...COMMON_ERROR_CODES, ...route.errors])];
}

/** `/v1/missions/{missionKey}` → `/v1/missions/:missionKey` (fastify's syntax). */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
