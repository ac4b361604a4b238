import { z } from 'zod';
import { ContentValueSchema } from '../environment/shop.ts';
import {
  IdempotencyKeySchema,
  ImagesSchema,
  LocalizedPlayerQuerySchema,
  PlayerIdSchema,
  PlayerQuerySchema,
  QueryBooleanSchema,
  QueryInt32Schema,
} from './common.ts';

/**
 * Resource and request shapes of the public /v1 API, one place for every service: owning services
 * validate with them, the gateway documents them in the OpenAPI document.
 */

const timestamp = z.iso.datetime().nullable();

export const RewardSchema = z
  .object({
    kind: z.enum(['Points', 'CatalogItem']),
    pointsAmount: z.int().nullable(),
    catalogItemKey: z.string().nullable(),
    catalogItemValue: z.union([z.number(), z.string(), z.boolean()]).nullable(),
  })
  .meta({ id: 'Reward' });

export const ProgressSchema = z
  .object({
    kind: z.enum(['TowardTarget', 'Boolean']),
    actual: z.number().nullable(),
    operator: z.enum(['GreaterThanOrEqual']).nullable(),
    target: z.number().nullable(),
    fraction: z.number().min(0).max(1).nullable(),
  })
  .meta({ id: 'Progress' });

export const ObjectiveSchema = z
  .object({
    objectiveId: z.uuid(),
    description: z.string().nullable(),
    order: z.int(),
    isSatisfied: z.boolean(),
    progress: ProgressSchema,
  })
  .meta({ id: 'Objective' });

export const MissionSchema = z
  .object({
    missionKey: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    images: ImagesSchema,
    status: z.enum(['Available', 'InProgress', 'Completed', 'Expired']),
    optInMode: z.enum(['Automatic', 'RequiresAcceptance']),
    isAccepted: z.boolean(),
    occurrenceNumber: z.int(),
    objectives: z.array(ObjectiveSchema),
    rewards: z.array(RewardSchema),
    startedAtUtc: timestamp,
    acceptedAtUtc: timestamp,
    completedAtUtc: timestamp,
    availableUntilUtc: timestamp,
  })
  .meta({ id: 'Mission' });

export const MissionCollectionSchema = z
  .object({
    collectionId: z.uuid(),
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    images: ImagesSchema,
    missions: z.array(MissionSchema),
  })
  .meta({ id: 'MissionCollection' });

/** Body of endpoints 1 to 3. */
export const MissionRequestSchema = z.object({
  playerId: PlayerIdSchema,
  languageCode: z.string().min(2).max(35).optional(),
});

export const ContentSchema = z
  .object({ catalogItemKey: z.string(), value: ContentValueSchema })
  .meta({ id: 'Content' });

export const MarketplaceItemSchema = z
  .object({
    marketplaceItemKey: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    images: ImagesSchema,
    priceInPoints: z.int(),
    contents: z.array(ContentSchema),
    /** The item's state for this player; affordability is not a status (see isPurchasable). */
    status: z.enum(['Purchasable', 'NotYetAvailable', 'Expired', 'SoldOut', 'LimitReached', 'NotEligible']),
    /** status is Purchasable and the player's balance covers the price. */
    isPurchasable: z.boolean(),
    occurrenceNumber: z.int(),
    remainingStock: z.int().nullable(),
    remainingPurchases: z.int().nullable(),
    availableUntilUtc: timestamp,
  })
  .meta({ id: 'MarketplaceItem' });

export const MarketplaceCollectionSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    images: ImagesSchema,
    items: z.array(MarketplaceItemSchema),
  })
  .meta({ id: 'MarketplaceCollection' });

export const MarketplaceItemsQuerySchema = LocalizedPlayerQuerySchema.extend({
  Take: QueryInt32Schema.pipe(z.int().min(0)).optional(),
});

export const PurchaseRequestSchema = z.object({
  playerId: PlayerIdSchema,
  idempotencyKey: IdempotencyKeySchema.optional(),
  /** What the caller showed the player; refused with marketplace_item.price_changed when the price differs. */
  expectedPriceInPoints: z.int().min(0).optional(),
});

export const PurchaseResultSchema = z
  .object({
    purchaseId: z.uuid(),
    /** The journal entry of the charge; null for a free item (nothing charged, no entry). */
    transactionId: z.uuid().nullable(),
    playerId: z.string(),
    marketplaceItemKey: z.string(),
    occurrenceNumber: z.int(),
    /** The amount charged, in points. */
    priceInPoints: z.int(),
    /** The contents granted. */
    contents: z.array(ContentSchema),
    /** The balance right after the purchase. */
    balance: z.int(),
    purchasedAtUtc: z.iso.datetime(),
  })
  .meta({ id: 'PurchaseResult' });

/** Most items GET /v1/player-items answers. */
export const MAX_PLAYER_ITEMS = 1_000;

export const PlayerItemsQuerySchema = PlayerQuerySchema.extend({
  Take: QueryInt32Schema.pipe(z.int().min(0).max(MAX_PLAYER_ITEMS)).optional(),
});

/** A catalog item granted to a player, by a purchase's contents or a reward (GET /v1/player-items). */
export const PlayerItemSchema = z
  .object({
    catalogItemKey: z.string(),
    /** The typed value; null when a reward named the item without a value. */
    value: ContentValueSchema.nullable(),
    source: z.enum(['Purchase', 'Reward']),
    /** The purchaseId, or the reward's grantId. */
    sourceRef: z.string(),
    /** The journal entry that went with the grant (the charge or the credit), if points moved. */
    transactionId: z.uuid().nullable(),
    grantedAtUtc: z.iso.datetime(),
  })
  .meta({ id: 'PlayerItem' });

/** Largest amount one adjustment may move, in whole points. */
export const MAX_POINTS_AMOUNT = 1_000_000_000_000;

export const PointsBalanceSchema = z
  .object({ playerId: z.string(), balance: z.int().min(0), updatedAtUtc: timestamp })
  .meta({ id: 'PointsBalance' });

export const PointsAdjustmentRequestSchema = z.object({
  playerId: PlayerIdSchema,
  amount: z.int().min(-MAX_POINTS_AMOUNT).max(MAX_POINTS_AMOUNT),
  reason: z.string().optional(),
  idempotencyKey: IdempotencyKeySchema.optional(),
});

export const PointsAdjustmentResultSchema = z
  .object({ transactionId: z.uuid(), amount: z.int(), balance: z.int().min(0) })
  .meta({ id: 'PointsAdjustmentResult' });

export const LeagueMovementSchema = z.enum(['Promoted', 'Relegated', 'Stayed']);

export const EntrySchema = z
  .object({
    rank: z.int(),
    displayName: z.string().nullable(),
    score: z.number(),
    isMe: z.boolean(),
    /** Only on a settled league period (Previous=true): what settling did to this row's tier. */
    movement: LeagueMovementSchema.optional(),
  })
  .meta({ id: 'LeaderboardEntry' });

export const LeaderboardStandingSchema = z
  .object({
    /** The caller's rank on the rows shown (null when the caller has no score in this period). */
    rank: z.int().nullable(),
    /** The caller's own score (on a team board: the caller's contribution to the team). */
    score: z.number().nullable(),
    displayName: z.string().nullable(),
  })
  .meta({ id: 'LeaderboardStanding' });

export const LeagueInfoSchema = z
  .object({
    /** The caller's tier in this period (lowest tier is index 0). */
    tierKey: z.string(),
    tierName: z.string().nullable(),
    tierIndex: z.int(),
    tierCount: z.int(),
    /** The caller's group within the tier; null until the caller scores in the period. */
    group: z.int().nullable(),
    groupSize: z.int(),
    promote: z.int(),
    relegate: z.int(),
    /** On a settled period: the caller's movement and the tier it leads to. */
    movement: LeagueMovementSchema.nullable(),
    nextTierKey: z.string().nullable(),
  })
  .meta({ id: 'LeaderboardLeague' });

export const TeamInfoSchema = z
  .object({
    /** The caller's team (from the board's team property); null until the caller scores for one. */
    teamKey: z.string().nullable(),
    rank: z.int().nullable(),
    score: z.number().nullable(),
  })
  .meta({ id: 'LeaderboardTeam' });

export const LeaderboardSchema = z
  .object({
    leaderboardKey: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    images: ImagesSchema,
    scoreSource: z.enum(['Event']),
    aggregation: z.enum(['Sum', 'Max', 'Min', 'Count', 'Latest']).nullable(),
    rankOrder: z.enum(['HighestFirst', 'LowestFirst']),
    ranksTeams: z.boolean(),
    period: z.object({ startsAtUtc: timestamp, endsAtUtc: timestamp }),
    isLocked: z.boolean(),
    /** Rows on the board the caller sees: players (the caller's group on a league) or teams. */
    participants: z.int(),
    me: LeaderboardStandingSchema.nullable(),
    league: LeagueInfoSchema.nullable(),
    team: TeamInfoSchema.nullable(),
  })
  .meta({ id: 'Leaderboard' });

export const LeaderboardViewSchema = z
  .object({
    leaderboard: LeaderboardSchema,
    top: z.array(EntrySchema),
    around: z.array(EntrySchema),
    isSettled: z.boolean(),
    /** The players listed in PlayerIds that have a score, ranked among themselves, with their ids. */
    named: z.array(EntrySchema.extend({ playerId: z.string() })).nullable(),
  })
  .meta({ id: 'LeaderboardView' });

export const MAX_AROUND = 25;
export const MAX_NAMED_PLAYERS = 100;

export const LeaderboardQuerySchema = LocalizedPlayerQuerySchema.extend({
  Top: QueryInt32Schema.pipe(z.int().min(0)).optional(),
  Around: QueryInt32Schema.pipe(z.int().min(0).max(MAX_AROUND)).optional(),
  Previous: QueryBooleanSchema.optional(),
  PlayerIds: z
    .union([PlayerIdSchema, z.array(PlayerIdSchema)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    // The union checked every id already: only the count is left to check.
    .pipe(z.array(z.string()).max(MAX_NAMED_PLAYERS))
    .optional(),
});

export const MilestoneSchema = z
  .object({
    threshold: z.int(),
    isReached: z.boolean(),
    rewards: z.array(RewardSchema),
    repeatsAfterReset: z.boolean(),
  })
  .meta({ id: 'Milestone' });

export const StreakSchema = z
  .object({
    streakKey: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    images: ImagesSchema,
    status: z.enum(['NotStarted', 'Active', 'AtRisk', 'Broken']),
    isLocked: z.boolean(),
    currentCount: z.int(),
    longestCount: z.int(),
    lastQualifyingDate: z.iso.date().nullable(),
    todayCounts: z.boolean(),
    runExpiresAtUtc: timestamp,
    nextMilestoneThreshold: z.int().nullable(),
    milestones: z.array(MilestoneSchema),
  })
  .meta({ id: 'Streak' });
