import { type LeaderboardResult, topics } from '@engage/contracts';
import { enqueueOutbox } from '@engage/kafka';
import type { PoolClient } from '@engage/postgres';
import { leagueMovement } from '../../domain/league.ts';
import { tickMs } from '../../domain/rank-score.ts';
import { loadDefinition } from '../../store/definitions.ts';
import { type ClaimedPeriod, markPeriodSettled, type StoredPeriod, toPeriod } from '../../store/periods.ts';
import {
  allResults,
  applyMovements,
  leagueResults,
  type PeriodRef,
  writeFinalRanks,
} from '../../store/results.ts';
import { leagueGroupsOf } from '../../store/scores.ts';

export interface SettledPeriod extends PeriodRef {
  periodEnd: number | null;
  participants: number;
  /** League groups whose live keys can go (tier, group). */
  groups: { tier: number; groupNo: number }[];
}

/**
 * Settles a claimed period in the caller's transaction: final ranks frozen in board_results, league
 * movements recorded and applied to the players' tiers, one analysts' record per row into the
 * outbox, the period marked settled. Scoring batches share-lock the period, so none is in flight.
 */
export async function settleClaimedPeriod(
  client: PoolClient,
  claimed: ClaimedPeriod,
  topicPrefix: string,
): Promise<SettledPeriod> {
  const period = toPeriod(claimed);
  const ref = { environmentId: period.environmentId, boardKey: period.boardKey, periodStart: period.start };
  const board = await loadDefinition(client, period.environmentId, period.boardKey);
  let participants = 0;
  if (board) {
    const ticks = { periodStart: period.start, periodEnd: claimed.ticks_end?.getTime() ?? null };
    participants = await writeFinalRanks(client, { ...ref, tickMs: tickMs(ticks) }, board);
    if (board.league) {
      const league = board.league;
      const moves = (await leagueResults(client, ref)).map((r) => ({
        playerId: r.playerId,
        ...leagueMovement(league, r.tier, r.rank, r.groupCount),
      }));
      await applyMovements(client, ref, moves);
    }
    const settledAt = new Date().toISOString();
    const tierKey = (tier: number | null) =>
      tier === null ? null : (board.league?.tiers[tier]?.key ?? null);
    const records: LeaderboardResult[] = (await allResults(client, ref)).map((r) => ({
      resultId: `${period.environmentId}:${period.boardKey}:${new Date(period.start).toISOString()}:${r.isTeam ? 'Team' : 'Player'}:${r.rowKey}`,
      organizationId: claimed.organization_id,
      environmentId: period.environmentId,
      leaderboardKey: period.boardKey,
      periodStartsAt: new Date(period.start).toISOString(),
      periodEndsAt: period.end === null ? null : new Date(period.end).toISOString(),
      rowKind: r.isTeam ? 'Team' : 'Player',
      rowKey: r.rowKey,
      rank: r.rank,
      score: r.score,
      tierKey: tierKey(r.tier),
      groupNumber: r.groupNo,
      movement: r.movement,
      nextTierKey: tierKey(r.nextTier),
      settledAt,
    }));
    await enqueueOutbox(client, topics.leaderboardsSettled, topicPrefix, records);
  }
  // The period leaves Redis once settled: the sweeper mirrors rows of open periods only.
  await markPeriodSettled(client, ref, participants);
  const groups = await leagueGroupsOf(client, ref);
  return {
    ...ref,
    periodEnd: period.end,
    participants,
    groups,
  };
}

export type { ClaimedPeriod, StoredPeriod };
