import { type LeaderboardResult, topics } from '@engage/contracts';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { enqueueOutbox } from '@engage/kafka';
import type { PoolClient } from '@engage/postgres';
import { leagueMovement } from '../domain/league.ts';
import { tickMs } from '../domain/rank-score.ts';
import { type StoredPeriod, toPeriod } from '../store/periods.ts';
import {
  allResults,
  applyMovements,
  leagueResults,
  type PeriodRef,
  writeFinalRanks,
} from '../store/results.ts';

export interface SettledPeriod extends PeriodRef {
  periodEnd: number | null;
  participants: number;
  /** League groups whose live keys can go (tier, group). */
  groups: { tier: number; groupNo: number }[];
}

interface ClaimedPeriod {
  environment_id: string;
  board_key: string;
  period_start: Date;
  period_end: Date | null;
  organization_id: string;
  state: 'open' | 'settled';
  participants: number | null;
  /** The end the live board's ticks were computed with: the end before an on-demand cut. */
  ticks_end: Date | null;
}

/**
 * Claims the open period that ended longest ago (at least `graceMs` ago, so late-consumed events of
 * it still score), skipping periods another replica is settling. Holds the row FOR UPDATE until the
 * caller's transaction ends: a crash rolls the whole settlement back and another replica redoes it.
 */
export async function claimDuePeriod(
  client: PoolClient,
  graceMs: number,
  environmentId?: string,
): Promise<ClaimedPeriod | undefined> {
  const { rows } = await client.query<ClaimedPeriod>(
    `SELECT environment_id, board_key, period_start, period_end, organization_id, state, participants,
       period_end AS ticks_end FROM board_periods
     WHERE state = 'open' AND period_end <= now() - make_interval(secs => $1::float8 / 1000)
       AND ($2::uuid IS NULL OR environment_id = $2)
     ORDER BY period_end LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [graceMs, environmentId ?? null],
  );
  return rows[0];
}

/**
 * Locks the period in progress of a board for an on-demand settle (sandbox): creates it if nobody
 * scored yet, and cuts it at now. Waits for a scoring batch holding it to commit.
 */
export async function claimCurrentPeriod(
  client: PoolClient,
  period: {
    environmentId: string;
    boardKey: string;
    start: number;
    end: number | null;
    organizationId: string;
  },
): Promise<ClaimedPeriod> {
  await client.query(
    `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [
      period.environmentId,
      period.boardKey,
      new Date(period.start).toISOString(),
      period.end === null ? null : new Date(period.end).toISOString(),
      period.organizationId,
    ],
  );
  const { rows } = await client.query<ClaimedPeriod>(
    `WITH uncut AS (
       SELECT period_end FROM board_periods
       WHERE environment_id = $1 AND board_key = $2 AND period_start = $3 AND state = 'open' FOR UPDATE)
     UPDATE board_periods SET period_end = LEAST(coalesce(period_end, 'infinity'), now())
     WHERE environment_id = $1 AND board_key = $2 AND period_start = $3 AND state = 'open'
     RETURNING environment_id, board_key, period_start, period_end, organization_id, state, participants,
       (SELECT period_end FROM uncut) AS ticks_end`,
    [period.environmentId, period.boardKey, new Date(period.start).toISOString()],
  );
  return rows[0]!;
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
  const { rows } = await client.query<{ definition: unknown }>(
    'SELECT definition FROM leaderboard_definitions WHERE environment_id = $1 AND board_key = $2',
    [period.environmentId, period.boardKey],
  );
  const board = rows[0] ? LeaderboardDefinitionSchema.parse(rows[0].definition) : undefined;
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
  await client.query(
    `UPDATE board_periods SET state = 'settled', settled_at = now(), participants = $4
     WHERE environment_id = $1 AND board_key = $2 AND period_start = $3`,
    [period.environmentId, period.boardKey, new Date(period.start).toISOString(), participants],
  );
  const { rows: groups } = await client.query<{ tier: number; group_no: number }>(
    `SELECT DISTINCT tier, group_no FROM board_scores
     WHERE environment_id = $1 AND board_key = $2 AND period_start = $3 AND tier IS NOT NULL AND group_no IS NOT NULL`,
    [period.environmentId, period.boardKey, new Date(period.start).toISOString()],
  );
  return {
    ...ref,
    periodEnd: period.end,
    participants,
    groups: groups.map((g) => ({ tier: g.tier, groupNo: g.group_no })),
  };
}

export type { StoredPeriod };
