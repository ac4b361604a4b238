import { z } from 'zod';
import { QueryInt32Schema } from './common.ts';
import { EntrySchema, LeaderboardViewSchema, PointsAdjustmentRequestSchema } from './resources.ts';

/**
 * Shapes of the operators' reads of one player and one board (the console's Players and
 * Leaderboards pages) that have no /v1 equivalent: the points journal and a board's periods.
 */

export const MAX_JOURNAL_PAGE = 100;

export const JournalQuerySchema = z.object({
  limit: QueryInt32Schema.pipe(z.int().min(1).max(MAX_JOURNAL_PAGE)).optional(),
  /** The `nextBefore` of the previous page: entries older than it. */
  before: QueryInt32Schema.pipe(z.int().min(1)).optional(),
});

export const JournalEntrySchema = z
  .object({
    transactionId: z.uuid(),
    kind: z.enum(['Adjustment', 'Purchase', 'Reward']),
    amount: z.int(),
    balanceAfter: z.int(),
    reason: z.string().nullable(),
    sourceRef: z.string().nullable(),
    createdAtUtc: z.iso.datetime(),
  })
  .meta({ id: 'AdminJournalEntry' });

export const JournalPageSchema = z
  .object({
    playerId: z.string(),
    /** Newest first. */
    entries: z.array(JournalEntrySchema),
    /** Pass as `before` for the next (older) page; null on the last page. */
    nextBefore: z.int().nullable(),
  })
  .meta({ id: 'AdminJournalPage' });

export const MAX_PERIODS_PAGE = 50;

export const PeriodsQuerySchema = z.object({
  limit: QueryInt32Schema.pipe(z.int().min(1).max(MAX_PERIODS_PAGE)).optional(),
});

export const BoardPeriodSchema = z
  .object({
    startsAtUtc: z.iso.datetime(),
    endsAtUtc: z.iso.datetime().nullable(),
    state: z.enum(['Open', 'Settled']),
    /** Rows ranked when the period settled (null while open). */
    participants: z.int().nullable(),
  })
  .meta({ id: 'AdminBoardPeriod' });

export const BoardPeriodsSchema = z
  .object({ leaderboardKey: z.string(), periods: z.array(BoardPeriodSchema) })
  .meta({ id: 'AdminBoardPeriods' });

/** A support adjustment: the /v1 body without the player (in the path) and key (a header), reason required. */
export const SupportAdjustmentSchema = z
  .object({
    amount: PointsAdjustmentRequestSchema.shape.amount,
    // Its length is the ledger's to check (points_adjustment.reason_too_long, as on /v1).
    reason: z.string().regex(/\S/, 'The reason must say why the balance changes.'),
  })
  .meta({ id: 'AdminSupportAdjustment' });
export type SupportAdjustment = z.infer<typeof SupportAdjustmentSchema>;

/**
 * A board as operators read it: /v1's view of it, but each player's row names the player (the
 * privacy rule of /v1, no ids but the named players', is for players, not for the game's operators).
 */
export const OperatorLeaderboardEntrySchema = EntrySchema.extend({
  /** The player's id; absent on a team board, whose rows are teams. */
  playerId: z.string().optional(),
}).meta({ id: 'AdminLeaderboardEntry' });

export const OperatorLeaderboardViewSchema = LeaderboardViewSchema.extend({
  top: z.array(OperatorLeaderboardEntrySchema),
  around: z.array(OperatorLeaderboardEntrySchema),
}).meta({ id: 'AdminLeaderboardView' });
