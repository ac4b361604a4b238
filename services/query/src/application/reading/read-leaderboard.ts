import type { PlayerContext } from '@engage/contracts';
import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import type { Pool } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { lastSettledPeriod } from '../../store/periods.ts';
import {
  boardsMarkerKey,
  displayNamesKey,
  leagueGroupKey,
  periodBoardKey,
  teamBoardKey,
} from '../../store/redis/keys.ts';
import { storedDisplayName, writeDisplayNames } from '../../store/redis/live-boards.ts';
import { type LiveRow, readLiveBoard } from '../../store/redis/live-read.ts';
import { countResults, type ResultRow, resultsOf, resultsPage } from '../../store/results.ts';
import { currentTiersOf, displayNames, findScore, saveDisplayNames } from '../../store/scores.ts';
import { type BoardMirrorDeps, ensureBoardsMirrored } from '../scoring/mirror.ts';
import { currentPeriod } from './current-period.ts';
import type { NameCache, TopCache } from './read-caches.ts';
import {
  type LeaderboardView,
  leaderboardHeader,
  leagueInfo,
  liveScore,
  type RankedRow,
  rankNamed,
  toEntry,
} from './view.ts';

export interface ReadOptions {
  environmentId: string;
  player: PlayerContext;
  top: number;
  around: number;
  named: string[] | null;
  previous: boolean;
  languageCode?: string;
  /** The operators' view: each player's row carries its id (see toEntry). */
  withPlayerIds?: boolean;
}

export interface ReaderDeps extends BoardMirrorDeps {
  pool: Pool;
  redis: Redis;
  caches: { top: TopCache; names: NameCache };
}

export async function readLeaderboard(
  deps: ReaderDeps,
  board: LeaderboardDefinition,
  options: ReadOptions,
): Promise<LeaderboardView> {
  await rememberDisplayName(deps, options);
  return options.previous ? readSettled(deps, board, options) : readLive(deps, board, options);
}

/**
 * Names this process stored or found stored in the last KNOWN_NAME_MS, per player: a read whose
 * attribute is unchanged asks Redis nothing (an event's newer name is overridden at most that late).
 */
const knownNames = new Map<string, { name: string; at: number }>();
const KNOWN_NAMES_MAX = 100_000;
const KNOWN_NAME_MS = 30_000;

/** The caller's `displayName` attribute becomes the name others see (stored when it changes). */
async function rememberDisplayName(deps: ReaderDeps, options: ReadOptions): Promise<void> {
  const attribute = options.player.attributes.displayName;
  if (typeof attribute !== 'string' || attribute.length === 0) return;
  const name = attribute.slice(0, 100);
  const known = `${options.environmentId}\u0000${options.player.id}`;
  const now = Date.now();
  const seen = knownNames.get(known);
  if (seen && seen.name === name && now - seen.at < KNOWN_NAME_MS) return;
  const named = { environmentId: options.environmentId, playerId: options.player.id, displayName: name };
  if ((await storedDisplayName(deps.redis, deps.keyPrefix, named.environmentId, named.playerId)) !== name) {
    await saveDisplayNames(deps.pool, [named]);
    await writeDisplayNames(deps.redis, deps.keyPrefix, [named]);
  }
  const namesKey = displayNamesKey(deps.keyPrefix, options.environmentId);
  deps.caches.names.remember(namesKey, options.player.id, name);
  if (knownNames.size >= KNOWN_NAMES_MAX) knownNames.clear();
  knownNames.set(known, { name, at: now });
}

async function readLive(
  deps: ReaderDeps,
  board: LeaderboardDefinition,
  options: ReadOptions,
): Promise<LeaderboardView> {
  const { environmentId, player } = options;
  // A team board's rows are teams: no player to name.
  const withIds = options.withPlayerIds === true && !board.team;
  const now = Date.now();
  const period = await currentPeriod(deps.pool, board, environmentId, now);
  const header = leaderboardHeader(board, period, options.languageCode);
  const scoreKey = { environmentId, boardKey: board.key, periodStart: period.start, playerId: player.id };
  const own = board.league || board.team ? await findScore(deps.pool, scoreKey) : undefined;

  let zset: string | null = periodBoardKey(deps.keyPrefix, environmentId, board.key, period.start);
  let member: string | null = player.id;
  let league: LeaderboardView['leaderboard']['league'] = null;
  if (board.league) {
    const tier = own?.tier ?? (await currentTiersOf(deps.pool, environmentId, board.key, player.id));
    league = leagueInfo(board, tier, own?.groupNo ?? null, options.languageCode);
    zset =
      own?.tier != null && own.groupNo != null
        ? leagueGroupKey(deps.keyPrefix, environmentId, board.key, period.start, own.tier, own.groupNo)
        : null;
  }
  if (board.team) {
    zset = teamBoardKey(deps.keyPrefix, environmentId, board.key, period.start);
    member = own?.teamKey ?? null;
  }
  const empty: LeaderboardView = {
    leaderboard: {
      ...header,
      participants: 0,
      me: null,
      league,
      team: board.team ? { teamKey: null, rank: null, score: null } : null,
    },
    top: [],
    around: [],
    isSettled: false,
    named: options.named ? [] : null,
  };
  if (zset === null) return empty;

  const request = {
    boardKey: zset,
    namesKey: displayNamesKey(deps.keyPrefix, environmentId),
    markerKey: boardsMarkerKey(deps.keyPrefix, environmentId),
    top: options.top,
    around: options.around,
    me: member,
    named: board.team ? [] : (options.named ?? []),
    withNames: !board.team,
  };
  const sources = { top: deps.caches.top.source, names: deps.caches.names.source };
  let live = await readLiveBoard(deps.redis, request, sources);
  if (!live) {
    await ensureBoardsMirrored(deps, environmentId);
    live = await readLiveBoard(deps.redis, request, sources);
    if (!live) throw new Error('the live boards are not mirrored after a rebuild');
  }
  const rowOf = (r: LiveRow): RankedRow => ({
    rank: r.position + 1,
    rowKey: r.member,
    displayName: board.team ? r.member : r.displayName,
    score: liveScore(board, r.rankScore),
  });
  const myScore = board.team
    ? own
      ? Number(own.exactScore)
      : null
    : live.me
      ? liveScore(board, live.me.rankScore)
      : null;
  return {
    leaderboard: {
      ...header,
      participants: live.participants,
      me:
        myScore === null && !live.me
          ? null
          : {
              rank: board.team ? null : live.me ? live.me.position + 1 : null,
              score: myScore,
              displayName: board.team ? null : (live.me?.displayName ?? null),
            },
      league,
      team: board.team
        ? {
            teamKey: member,
            rank: live.me ? live.me.position + 1 : null,
            score: live.me ? liveScore(board, live.me.rankScore) : null,
          }
        : null,
    },
    top: live.top.map((r) => toEntry(rowOf(r), member, withIds)),
    around: live.around.map((r) => toEntry(rowOf(r), member, withIds)),
    isSettled: false,
    named: options.named
      ? rankNamed(
          live.named.map((r) => ({ ...rowOf(r), order: -r.rankScore })),
          member,
        )
      : null,
  };
}

async function readSettled(
  deps: ReaderDeps,
  board: LeaderboardDefinition,
  options: ReadOptions,
): Promise<LeaderboardView> {
  const { environmentId, player } = options;
  // A team board's rows are teams: no player to name.
  const withIds = options.withPlayerIds === true && !board.team;
  const period = await lastSettledPeriod(deps.pool, { environmentId, boardKey: board.key });
  const header = leaderboardHeader(board, period ?? null, options.languageCode);
  if (!period) {
    return {
      leaderboard: { ...header, participants: 0, me: null, league: null, team: null },
      top: [],
      around: [],
      isSettled: false,
      named: options.named ? [] : null,
    };
  }
  const ref = { environmentId, boardKey: board.key, periodStart: period.start };
  const own = board.team ? await findScore(deps.pool, { ...ref, playerId: player.id }) : undefined;
  const mine = board.team ? (own?.teamKey ?? null) : player.id;
  const [myResult] = mine === null ? [] : await resultsOf(deps.pool, ref, [mine]);
  const group = board.league
    ? myResult?.tier != null && myResult.groupNo != null
      ? { tier: myResult.tier, groupNo: myResult.groupNo }
      : undefined
    : null;
  const league =
    board.league && myResult?.tier != null
      ? leagueInfo(board, myResult.tier, myResult.groupNo, options.languageCode, myResult)
      : null;
  if (group === undefined) {
    return {
      leaderboard: { ...header, participants: 0, me: null, league, team: null },
      top: [],
      around: [],
      isSettled: true,
      named: options.named ? [] : null,
    };
  }
  const top = await resultsPage(deps.pool, ref, group, 1, options.top);
  const around =
    myResult && options.around > 0
      ? await resultsPage(
          deps.pool,
          ref,
          group,
          Math.max(1, myResult.rank - options.around),
          myResult.rank + options.around,
        )
      : [];
  const named = options.named && !board.team ? await resultsOf(deps.pool, ref, options.named) : [];
  const sameGroup = named.filter(
    (r) => group === null || (r.tier === group.tier && r.groupNo === group.groupNo),
  );
  const names = board.team
    ? new Map<string, string>()
    : await displayNames(deps.pool, environmentId, [
        ...new Set([...top, ...around, ...sameGroup].map((r) => r.rowKey)),
      ]);
  const rowOf = (r: ResultRow): RankedRow => ({
    rank: r.rank,
    rowKey: r.rowKey,
    displayName: board.team ? r.rowKey : (names.get(r.rowKey) ?? null),
    score: Number(r.score),
    movement: r.movement,
  });
  return {
    leaderboard: {
      ...header,
      participants: await countResults(deps.pool, ref, group),
      me: board.team
        ? own
          ? { rank: null, score: Number(own.exactScore), displayName: null }
          : null
        : myResult
          ? { rank: myResult.rank, score: Number(myResult.score), displayName: names.get(player.id) ?? null }
          : null,
      league,
      team: board.team
        ? { teamKey: mine, rank: myResult?.rank ?? null, score: myResult ? Number(myResult.score) : null }
        : null,
    },
    top: top.map((r) => toEntry(rowOf(r), mine, withIds)),
    around: around.map((r) => toEntry(rowOf(r), mine, withIds)),
    isSettled: true,
    named: options.named
      ? rankNamed(
          sameGroup.map((r) => ({ ...rowOf(r), order: r.rank })),
          mine,
        )
      : null,
  };
}
