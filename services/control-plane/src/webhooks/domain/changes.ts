import type { LeaderboardResult, PointsJournalEntry, RulesProgress, ShopPurchase } from '@engage/contracts';
import type { WebhookEventType } from '@engage/contracts/http/webhooks.ts';

/**
 * The changes webhooks report, read from the records of the topics they come from. A change may
 * go to several endpoints; `sourceId` names it once per event type, so it makes one delivery per
 * endpoint however often its record is read.
 */
export interface WebhookChange {
  sourceId: string;
  eventType: WebhookEventType;
  environmentId: string;
  playerId: string;
  /** When the change happened: the payload's `timestamp`. */
  occurredAt: string;
  data: Record<string, unknown>;
  /** `leaderboard.rank_reached`: the final rank, sent to endpoints whose threshold it is within. */
  rank?: number;
}

/** rules.progress.v1: completed missions, reached milestones, broken streaks; other steps are not sent. */
export function changesOfProgress(record: RulesProgress): WebhookChange[] {
  const base = {
    sourceId: record.recordId,
    environmentId: record.environmentId,
    playerId: record.playerId,
    occurredAt: record.occurredAt,
  };
  switch (record.kind) {
    case 'MissionCompleted':
      return [
        {
          ...base,
          eventType: 'mission.completed',
          data: {
            playerId: record.playerId,
            missionKey: record.subjectKey,
            occurrenceNumber: record.occurrenceNumber,
            completedAt: record.occurredAt,
          },
        },
      ];
    case 'StreakMilestoneReached':
      return [
        {
          ...base,
          eventType: 'milestone.reached',
          data: {
            playerId: record.playerId,
            streakKey: record.subjectKey,
            runNumber: record.occurrenceNumber,
            milestoneThreshold: record.milestoneThreshold,
            reachedAt: record.occurredAt,
          },
        },
      ];
    case 'StreakBroken':
      return [
        {
          ...base,
          eventType: 'streak.broken',
          occurredAt: record.endedAt ?? record.occurredAt,
          data: {
            playerId: record.playerId,
            streakKey: record.subjectKey,
            runNumber: record.occurrenceNumber,
            finalCount: record.value,
            lastCountedLocalDate: record.localDate,
            brokenAt: record.endedAt ?? record.occurredAt,
          },
        },
      ];
    default:
      return [];
  }
}

/**
 * points.journal.v1: adjustments. Purchases come from shop.purchases.v1 (free ones have no entry);
 * reward credits are reported as their mission or milestone.
 */
export function changesOfJournal(entry: PointsJournalEntry): WebhookChange[] {
  if (entry.kind !== 'adjustment') return [];
  return [
    {
      sourceId: entry.entryId,
      environmentId: entry.environmentId,
      playerId: entry.playerId,
      occurredAt: entry.occurredAt,
      eventType: 'points.adjusted',
      data: {
        playerId: entry.playerId,
        transactionId: entry.entryId,
        amount: entry.amount,
        balanceAfter: entry.balanceAfter,
        reason: entry.reason,
        adjustedAt: entry.occurredAt,
      },
    },
  ];
}

/** shop.purchases.v1: every purchase, free ones too. */
export function changesOfPurchase(purchase: ShopPurchase): WebhookChange[] {
  return [
    {
      sourceId: purchase.purchaseId,
      environmentId: purchase.environmentId,
      playerId: purchase.playerId,
      occurredAt: purchase.purchasedAt,
      eventType: 'purchase.made',
      data: {
        playerId: purchase.playerId,
        purchaseId: purchase.purchaseId,
        transactionId: purchase.entryId,
        itemKey: purchase.marketplaceItemKey,
        occurrenceNumber: purchase.occurrenceNumber,
        pointsSpent: purchase.priceInPoints,
        balanceAfter: purchase.balanceAfter,
        contents: purchase.contents,
        purchasedAt: purchase.purchasedAt,
      },
    },
  ];
}

/**
 * leaderboards.settled.v1: a player's final standing, and the same rank as `rank_reached` for
 * endpoints whose threshold it is within. Team rows are not sent (a team is no player).
 */
export function changesOfSettlement(result: LeaderboardResult): WebhookChange[] {
  if (result.rowKind !== 'Player') return [];
  const base = {
    environmentId: result.environmentId,
    playerId: result.rowKey,
    occurredAt: result.settledAt,
  };
  const period = {
    playerId: result.rowKey,
    leaderboardKey: result.leaderboardKey,
    periodStartsAt: result.periodStartsAt,
    periodEndsAt: result.periodEndsAt,
  };
  return [
    {
      ...base,
      sourceId: `${result.resultId}:settled`,
      eventType: 'leaderboard.period_settled',
      data: {
        ...period,
        finalRank: result.rank,
        score: result.score,
        tierKey: result.tierKey,
        groupNumber: result.groupNumber,
        leagueMove: result.movement,
        nextTierKey: result.nextTierKey,
        settledAt: result.settledAt,
      },
    },
    {
      ...base,
      sourceId: `${result.resultId}:rank`,
      eventType: 'leaderboard.rank_reached',
      rank: result.rank,
      data: { ...period, rank: result.rank, score: result.score, settledAt: result.settledAt },
    },
  ];
}

export interface SubscribingEndpoint {
  webhookId: string;
  eventTypes: readonly string[];
  rankThreshold: number;
  /** Changes made before the endpoint existed are not sent to it. */
  createdAt: Date;
}

/** The `data` the endpoint gets for the change, or undefined when it does not get it. */
export function dataFor(
  change: WebhookChange,
  endpoint: SubscribingEndpoint,
  changeMadeAt: Date,
): Record<string, unknown> | undefined {
  if (!endpoint.eventTypes.includes(change.eventType)) return undefined;
  if (changeMadeAt.getTime() < endpoint.createdAt.getTime()) return undefined;
  if (change.rank === undefined) return change.data;
  if (change.rank > endpoint.rankThreshold) return undefined;
  return { ...change.data, rankThreshold: endpoint.rankThreshold };
}
