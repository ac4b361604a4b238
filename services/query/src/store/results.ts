import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import { execute, type Pool, type PoolClient } from '@engage/postgres';
import { LAST_TICK } from '../domain/rank-score.ts';
import { db } from './tables.ts';

type Queryable = Pool | PoolClient;

export interface ResultRow {
  rowKey: string;
  isTeam: boolean;
  rank: number;
  score: string;
  tier: number | null;
  groupNo: number | null;
  movement: 'Promoted' | 'Relegated' | 'Stayed' | null;
  nextTier: number | null;
}

interface ResultRecord {
  row_key: string;
  is_team: boolean;
  rank: number;
  score: string;
  tier: number | null;
  group_no: number | null;
  movement: ResultRow['movement'];
  next_tier: number | null;
}

const toResult = (r: ResultRecord): ResultRow => ({
  rowKey: r.row_key,
  isTeam: r.is_team,
  rank: r.rank,
  score: r.score,
  tier: r.tier,
  groupNo: r.group_no,
  movement: r.movement,
  nextTier: r.next_tier,
});

export interface PeriodRef {
  environmentId: string;
  boardKey: string;
  periodStart: number;
}

const ref = (p: PeriodRef) => [p.environmentId, p.boardKey, new Date(p.periodStart).toISOString()];

/**
 * Freezes a period's final ranks: per group on a league, over every player otherwise, or over the
 * teams' sums on a team board. In the order the live board had (see encodeRankScore): the better
 * score at the board's decimals, then the earlier tick (`tickMs`: the length of a tick the live board
 * used), then the row key in descending byte order. Unlike the live board, scores are not clamped.
 */
export async function writeFinalRanks(
  client: PoolClient,
  period: PeriodRef & { tickMs: number },
  board: LeaderboardDefinition,
): Promise<number> {
  const direction = board.rankOrder === 'LowestFirst' ? 'ASC' : 'DESC';
  const tick = (reachedAt: string) =>
    `LEAST(${LAST_TICK}, GREATEST(0, floor((extract(epoch FROM ${reachedAt}) - extract(epoch FROM $3::timestamptz)) * 1000 / $5)))`;
  const sql = board.team
    ? `INSERT INTO board_results (environment_id, board_key, period_start, row_key, is_team, rank, score)
       SELECT $1, $2, $3, team_key, true,
         row_number() OVER (ORDER BY round(sum(score) * $4) ${direction}, ${tick('max(reached_at)')}, team_key COLLATE "C" DESC),
         sum(score)
       FROM board_scores WHERE environment_id = $1 AND board_key = $2 AND period_start = $3 AND team_key IS NOT NULL
       GROUP BY team_key`
    : `INSERT INTO board_results (environment_id, board_key, period_start, row_key, is_team, rank, score, tier, group_no)
       SELECT environment_id, board_key, period_start, player_id, false,
         row_number() OVER (PARTITION BY tier, group_no
           ORDER BY round(score * $4) ${direction}, ${tick('reached_at')}, player_id COLLATE "C" DESC),
         score, tier, group_no
       FROM board_scores WHERE environment_id = $1 AND board_key = $2 AND period_start = $3`;
  const result = await client.query(sql, [...ref(period), 10 ** board.decimals, period.tickMs]);
  return result.rowCount ?? 0;
}

/** Every result of a league period with the size of its group, for computing the movements. */
export async function leagueResults(client: PoolClient, period: PeriodRef) {
  const { rows } = await client.query<{
    row_key: string;
    tier: number;
    group_no: number;
    rank: number;
    group_count: number;
  }>(
    `SELECT row_key, tier, group_no, rank, (count(*) OVER (PARTITION BY tier, group_no))::int AS group_count
     FROM board_results WHERE environment_id = $1 AND board_key = $2 AND period_start = $3`,
    ref(period),
  );
  return rows.map((r) => ({
    playerId: r.row_key,
    tier: r.tier,
    groupNo: r.group_no,
    rank: r.rank,
    groupCount: r.group_count,
  }));
}

/** Records the movements in the results and applies them to the players' tiers for the next periods. */
export async function applyMovements(
  client: PoolClient,
  period: PeriodRef,
  moves: readonly { playerId: string; movement: string; nextTier: number }[],
): Promise<void> {
  if (moves.length === 0) return;
  const args = [
    ...ref(period),
    moves.map((m) => m.playerId),
    moves.map((m) => m.movement),
    moves.map((m) => m.nextTier),
  ];
  await client.query(
    `UPDATE board_results r SET movement = m.movement, next_tier = m.next_tier
     FROM unnest($4::text[], $5::text[], $6::int[]) AS m(row_key, movement, next_tier)
     WHERE r.environment_id = $1 AND r.board_key = $2 AND r.period_start = $3 AND r.row_key = m.row_key`,
    args,
  );
  await client.query(
    `INSERT INTO league_tiers (environment_id, board_key, player_id, tier)
     SELECT $1, $2, * FROM unnest($3::text[], $4::int[]) ORDER BY 3
     ON CONFLICT (environment_id, board_key, player_id) DO UPDATE SET tier = EXCLUDED.tier, updated_at = now()`,
    [period.environmentId, period.boardKey, moves.map((m) => m.playerId), moves.map((m) => m.nextTier)],
  );
}

export async function allResults(client: PoolClient, period: PeriodRef): Promise<ResultRow[]> {
  const { rows } = await client.query<ResultRecord>(
    `SELECT row_key, is_team, rank, trim_scale(score)::text AS score, tier, group_no, movement, next_tier FROM board_results
     WHERE environment_id = $1 AND board_key = $2 AND period_start = $3 ORDER BY tier, group_no, rank`,
    ref(period),
  );
  return rows.map(toResult);
}

/** A settled period's results, with the score as exact decimal text without trailing zeros. */
const resultsOfPeriod = (period: PeriodRef) =>
  db
    .selectFrom('board_results')
    .select((eb) => [
      'row_key',
      'is_team',
      'rank',
      eb.cast<string>(eb.fn('trim_scale', ['score']), 'text').as('score'),
      'tier',
      'group_no',
      'movement',
      'next_tier',
    ])
    .where('environment_id', '=', period.environmentId)
    .where('board_key', '=', period.boardKey)
    .where('period_start', '=', new Date(period.periodStart));

/** A window of a settled period's ranks (within one league group when `group` is given). */
export async function resultsPage(
  conn: Queryable,
  period: PeriodRef,
  group: { tier: number; groupNo: number } | null,
  fromRank: number,
  toRank: number,
): Promise<ResultRow[]> {
  if (toRank < fromRank) return [];
  const rows = await execute(
    conn,
    resultsOfPeriod(period)
      .where('tier', 'is not distinct from', group?.tier ?? null)
      .where('group_no', 'is not distinct from', group?.groupNo ?? null)
      .where('rank', '>=', fromRank)
      .where('rank', '<=', toRank)
      .orderBy('rank'),
  );
  return rows.map(toResult);
}

export async function resultsOf(
  conn: Queryable,
  period: PeriodRef,
  rowKeys: readonly string[],
): Promise<ResultRow[]> {
  const rows = await execute(
    conn,
    resultsOfPeriod(period).where('row_key', '=', (eb) => eb.fn.any(eb.val([...rowKeys]))),
  );
  return rows.map(toResult);
}

export async function countResults(
  conn: Queryable,
  period: PeriodRef,
  group: { tier: number; groupNo: number } | null,
) {
  const [row] = await execute(
    conn,
    db
      .selectFrom('board_results')
      .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
      .where('environment_id', '=', period.environmentId)
      .where('board_key', '=', period.boardKey)
      .where('period_start', '=', new Date(period.periodStart))
      .where('tier', 'is not distinct from', group?.tier ?? null)
      .where('group_no', 'is not distinct from', group?.groupNo ?? null),
  );
  return row?.n ?? 0;
}
