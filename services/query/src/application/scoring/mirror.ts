import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { encodeRankScore } from '../../domain/rank-score.ts';
import type { Definitions } from '../../store/definitions.ts';
import type { BoardRef } from '../../store/periods.ts';
import { leagueGroupKey, periodBoardKey, teamBoardKey } from '../../store/redis/keys.ts';
import {
  boardsMirrored,
  type DisplayName,
  markBoardsMirrored,
  writeBoardMembers,
  writeDisplayNames,
} from '../../store/redis/live-boards.ts';
import { ZaddBatch } from '../../store/redis/zadd-batch.ts';
import {
  displayNames,
  openPeriodScores,
  type ScoreRow,
  type TeamTotal,
  teamTotals,
} from '../../store/scores.ts';

export interface BoardMirrorDeps {
  pool: Pool;
  redis: Redis;
  keyPrefix: string;
  log: Logger;
  definitions: Definitions;
}

const REBUILD_PAGE = 2_000;

/**
 * Writes committed scores into the live boards: each row's absolute rank score (never an increment,
 * so a replay writes the same value) and the team totals they change. An environment whose boards
 * Redis lost (its marker is gone, as the same pipeline tells) is then rebuilt from Postgres, which
 * holds these rows too.
 */
export async function mirrorScores(deps: BoardMirrorDeps, rows: readonly ScoreRow[]): Promise<void> {
  if (rows.length === 0) return;
  const environmentIds = [...new Set(rows.map((r) => r.environmentId))];
  for (const environmentId of await writeRows(deps, rows, environmentIds)) {
    await ensureBoardsMirrored(deps, environmentId);
  }
}

/**
 * One pipeline; variadic ZADDs per sorted set (in pieces, see ZADD_MEMBERS_MAX), after the markers
 * of `environmentIds`; answers those whose marker is missing.
 */
async function writeRows(
  deps: BoardMirrorDeps,
  rows: readonly ScoreRow[],
  environmentIds: readonly string[] = [],
): Promise<string[]> {
  const boardOf = await boardsOf(deps, rows);
  const members = new ZaddBatch();
  const teams: ScoreRow[] = [];
  for (const row of rows) {
    const board = boardOf(row);
    if (!board) continue;
    if (board.team) {
      if (row.teamKey !== null) teams.push(row);
      continue;
    }
    members.add(
      liveKey(deps.keyPrefix, row),
      encodeRankScore(scaleOf(board, row), row.exactScore, row.reachedAt),
      row.playerId,
    );
  }
  for (const total of await teamTotals(deps.pool, teams)) {
    const board = boardOf(total);
    if (!board) continue;
    members.add(
      teamBoardKey(deps.keyPrefix, total.environmentId, total.boardKey, total.periodStart),
      encodeRankScore(scaleOf(board, total), total.exactScore, total.reachedAt),
      total.teamKey,
    );
  }
  return writeBoardMembers(deps.redis, deps.keyPrefix, members, environmentIds);
}

/** The definitions of the rows' boards, each looked up once. */
async function boardsOf(deps: Pick<BoardMirrorDeps, 'definitions'>, rows: readonly BoardRef[]) {
  const id = (r: BoardRef) => `${r.environmentId}\u0000${r.boardKey}`;
  const boards = new Map<string, LeaderboardDefinition | undefined>();
  for (const row of rows) {
    const key = id(row);
    if (!boards.has(key)) boards.set(key, await deps.definitions.board(row.environmentId, row.boardKey));
  }
  return (row: BoardRef) => boards.get(id(row));
}

function liveKey(prefix: string, row: ScoreRow): string {
  return row.tier !== null && row.groupNo !== null
    ? leagueGroupKey(prefix, row.environmentId, row.boardKey, row.periodStart, row.tier, row.groupNo)
    : periodBoardKey(prefix, row.environmentId, row.boardKey, row.periodStart);
}

export function scaleOf(
  board: Pick<LeaderboardDefinition, 'decimals' | 'rankOrder'>,
  period: Pick<ScoreRow | TeamTotal, 'periodStart' | 'periodEnd'>,
) {
  return {
    decimals: board.decimals,
    lowestFirst: board.rankOrder === 'LowestFirst',
    periodStart: period.periodStart,
    periodEnd: period.periodEnd,
  };
}

/** Writes display names to the environment's names hash. */
export async function mirrorDisplayNames(
  deps: Pick<BoardMirrorDeps, 'redis' | 'keyPrefix'>,
  names: Iterable<DisplayName>,
): Promise<void> {
  await writeDisplayNames(deps.redis, deps.keyPrefix, names);
}

/**
 * Rebuilds an environment's live boards (every open period), team totals and names from Postgres
 * when its marker is missing, then sets the marker and writes once more the rows that changed while
 * it ran (a concurrent mirror may have been overwritten by an older page). Returns whether it ran.
 */
export async function ensureBoardsMirrored(deps: BoardMirrorDeps, environmentId: string): Promise<boolean> {
  if (await boardsMirrored(deps.redis, deps.keyPrefix, environmentId)) return false;
  // Reads and the consumer of one process that find the marker gone share one rebuild.
  const id = `${deps.keyPrefix}\u0000${environmentId}`;
  const running = rebuilds.get(id);
  if (running) return running;
  const rebuild = rebuildBoards(deps, environmentId).finally(() => rebuilds.delete(id));
  rebuilds.set(id, rebuild);
  return rebuild;
}

const rebuilds = new Map<string, Promise<boolean>>();

async function rebuildBoards(deps: BoardMirrorDeps, environmentId: string): Promise<boolean> {
  const started = new Date(Date.now() - 2_000);
  let rebuilt = 0;
  let after: ScoreRow | undefined;
  for (;;) {
    const page = await openPeriodScores(deps.pool, environmentId, after, REBUILD_PAGE);
    await writeRows(deps, page);
    rebuilt += page.length;
    after = page.at(-1);
    if (page.length < REBUILD_PAGE) break;
  }
  const names = await displayNames(deps.pool, environmentId);
  await mirrorDisplayNames(
    deps,
    [...names].map(([playerId, displayName]) => ({ environmentId, playerId, displayName })),
  );
  await markBoardsMirrored(deps.redis, deps.keyPrefix, environmentId);
  after = undefined;
  for (;;) {
    const page = await openPeriodScores(deps.pool, environmentId, after, REBUILD_PAGE, started);
    await writeRows(deps, page);
    after = page.at(-1);
    if (page.length < REBUILD_PAGE) break;
  }
  if (rebuilt > 0) deps.log.info({ environmentId, rows: rebuilt }, 'rebuilt live leaderboards from Postgres');
  return true;
}
