import type { LeaderboardViewSchema } from '@engage/contracts';
import { isEligible, type PlayerContext, resolveOptionalText, resolveText } from '@engage/contracts';
import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import type { z } from 'zod';
import type { Movement } from '../../domain/league.ts';
import { inSeason, type Period } from '../../domain/periods.ts';
import { decodeRankScore } from '../../domain/rank-score.ts';

export type LeaderboardView = z.infer<typeof LeaderboardViewSchema>;
type Entry = LeaderboardView['top'][number];
type Named = NonNullable<LeaderboardView['named']>[number];

/** Unknown, switched off, out of season and hidden boards are one and the same 404. */
export function isVisible(
  board: LeaderboardDefinition | undefined,
  player: PlayerContext,
  now: number,
): board is LeaderboardDefinition {
  return !!board && board.active && inSeason(board, now) && isEligible(board.eligibility, player.attributes);
}

/** A row before it becomes an entry: never carries an id unless it is a named one. */
export interface RankedRow {
  rank: number;
  rowKey: string;
  displayName: string | null;
  score: number;
  movement?: Movement | null;
}

/** `withPlayerId`: the operators' view, whose rows name their player (never on /v1). */
export function toEntry(row: RankedRow, mine: string | null, withPlayerId = false): Entry {
  const entry: Entry & { playerId?: string } = {
    rank: row.rank,
    displayName: row.displayName,
    score: row.score,
    isMe: row.rowKey === mine,
  };
  if (row.movement) entry.movement = row.movement;
  if (withPlayerId) entry.playerId = row.rowKey;
  return entry;
}

/**
 * Named players ranked among themselves, with their ids, in the board's own order: `order` first
 * (lower is better), then, as on the live board, the player id in descending byte order.
 */
export function rankNamed(rows: readonly (RankedRow & { order: number })[], mine: string | null): Named[] {
  return [...rows]
    .sort((a, b) => a.order - b.order || Buffer.compare(Buffer.from(b.rowKey), Buffer.from(a.rowKey)))
    .map((row, i) => ({ ...toEntry({ ...row, rank: i + 1 }, mine), playerId: row.rowKey }));
}

export function liveScore(board: LeaderboardDefinition, rankScore: number): number {
  return decodeRankScore(
    { decimals: board.decimals, lowestFirst: board.rankOrder === 'LowestFirst' },
    rankScore,
  );
}

export function leaderboardHeader(
  board: LeaderboardDefinition,
  period: Period | null,
  languageCode: string | undefined,
): Omit<LeaderboardView['leaderboard'], 'participants' | 'me' | 'league' | 'team'> {
  return {
    leaderboardKey: board.key,
    name: resolveText(board.name, languageCode),
    description: resolveOptionalText(board.description, languageCode),
    images: board.images,
    scoreSource: board.scoreSource.type,
    aggregation: board.aggregation,
    rankOrder: board.rankOrder,
    ranksTeams: !!board.team,
    period: {
      startsAtUtc: period ? new Date(period.start).toISOString() : null,
      endsAtUtc: period?.end != null ? new Date(period.end).toISOString() : null,
    },
    isLocked: board.isLocked,
  };
}

export function leagueInfo(
  board: LeaderboardDefinition,
  tier: number,
  groupNo: number | null,
  languageCode: string | undefined,
  outcome?: { movement: Movement | null; nextTier: number | null },
): LeaderboardView['leaderboard']['league'] {
  const league = board.league;
  if (!league) return null;
  const rules = league.tiers[tier];
  return {
    tierKey: rules?.key ?? String(tier),
    tierName: resolveOptionalText(rules?.name, languageCode),
    tierIndex: tier,
    tierCount: league.tiers.length,
    group: groupNo,
    groupSize: league.groupSize,
    promote: tier < league.tiers.length - 1 ? (rules?.promote ?? 0) : 0,
    relegate: tier > 0 ? (rules?.relegate ?? 0) : 0,
    movement: outcome?.movement ?? null,
    nextTierKey: outcome?.nextTier == null ? null : (league.tiers[outcome.nextTier]?.key ?? null),
  };
}
