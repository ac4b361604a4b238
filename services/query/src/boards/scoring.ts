import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import type { PoolClient } from '@engage/postgres';
import { groupOfArrival } from '../domain/league.ts';
import { type Period, periodAt, periodContains } from '../domain/periods.ts';
import {
  type BoardHit,
  boardHits,
  displayNamesFrom,
  foldHits,
  type ScoreDelta,
  type ScoredEvent,
} from '../domain/scoring.ts';
import { loadDefinitions } from '../store/definitions.ts';
import { openPeriodsForScoring, recentPeriods } from '../store/periods.ts';
import {
  currentTiers,
  existingPlayers,
  type LeaguePlacement,
  mergeScores,
  playerPeriodKey,
  reserveArrivals,
  type ScoreRow,
  saveDisplayNames,
} from '../store/scores.ts';

export interface ScoredBatch {
  /** The merged rows as committed: what Redis mirrors. */
  rows: ScoreRow[];
  /** The mirror ticket listing `rows` (null when none changed), closed once Redis has them. */
  ticketId: string | null;
  names: { environmentId: string; playerId: string; displayName: string }[];
  /** Events dropped because their period was already settled. */
  late: number;
}

const boardId = (environmentId: string, boardKey: string) => `${environmentId}\u0000${boardKey}`;

/**
 * Scores a batch of accepted events on the environments' boards, inside the consumer's transaction:
 * places each hit in its period (creating and share-locking the periods), drops hits on settled
 * periods, assigns league newcomers their group, and merges one delta per player and period.
 */
export async function scoreEvents(client: PoolClient, events: readonly ScoredEvent[]): Promise<ScoredBatch> {
  const names = [...displayNamesFrom(events).values()];
  await saveDisplayNames(client, names);
  const definitions = await loadDefinitions(client, [...new Set(events.map((e) => e.environmentId))]);
  const boards = new Map<string, LeaderboardDefinition>();
  for (const [environmentId, list] of definitions) {
    for (const board of list) boards.set(boardId(environmentId, board.key), board);
  }
  const hits = boardHits(events, (environmentId) => definitions.get(environmentId) ?? []);
  if (hits.length === 0) return { rows: [], ticketId: null, names, late: 0 };

  const placed = await placeInPeriods(client, hits, boards);
  const deltas = foldHits(placed.hits, (environmentId, boardKey) => {
    return boards.get(boardId(environmentId, boardKey))?.aggregation ?? 'Sum';
  });
  const placements = await placeLeagueNewcomers(client, deltas, boards);
  const { rows, ticketId } = await mergeScores(client, deltas, placements);
  return { rows, ticketId, names, late: placed.late };
}

async function placeInPeriods(
  client: PoolClient,
  hits: readonly BoardHit[],
  boards: ReadonlyMap<string, LeaderboardDefinition>,
): Promise<{ hits: (BoardHit & { periodStart: number })[]; late: number }> {
  const touched = [...new Map(hits.map((h) => [boardId(h.environmentId, h.boardKey), h])).values()];
  const known = new Map<string, Period[]>();
  for (const p of await recentPeriods(client, touched)) {
    const id = boardId(p.environmentId, p.boardKey);
    known.set(id, [...(known.get(id) ?? []), p]);
  }
  const wanted = new Map<string, BoardHit & Period>();
  // Periods never overlap, so a hit inside the period its board's previous hit fell in falls there too.
  const lastPlaced = new Map<string, Period>();
  const withPeriod = hits.map((hit) => {
    const id = boardId(hit.environmentId, hit.boardKey);
    let period = lastPlaced.get(id);
    if (!period || !periodContains(period, hit.at)) {
      period = periodOfHit(known, id, boards.get(id)!, hit.at);
      wanted.set(`${id}\u0000${period.start}`, { ...hit, ...period });
      lastPlaced.set(id, period);
    }
    return { ...hit, periodStart: period.start };
  });
  const stored = await openPeriodsForScoring(client, [...wanted.values()]);
  const settled = new Set(
    stored
      .filter((p) => p.state === 'settled')
      .map((p) => `${boardId(p.environmentId, p.boardKey)}\u0000${p.start}`),
  );
  if (settled.size === 0) return { hits: withPeriod, late: 0 };
  const open = withPeriod.filter(
    (h) => !settled.has(`${boardId(h.environmentId, h.boardKey)}\u0000${h.periodStart}`),
  );
  return { hits: open, late: withPeriod.length - open.length };
}

/** The period `at` falls in, given the board's known periods (a period new to them is added). */
function periodOfHit(
  known: Map<string, Period[]>,
  id: string,
  board: LeaderboardDefinition,
  at: number,
): Period {
  const periods = known.get(id) ?? [];
  const latest = periods
    .filter((p) => p.start <= at)
    .reduce<Period | undefined>((a, p) => (a && a.start > p.start ? a : p), undefined);
  const period = periodAt(board, at, latest);
  if (!periods.some((p) => p.start === period.start)) known.set(id, [...periods, period]);
  return period;
}

/** League players new to a period join their current tier's groups in order of arrival. */
async function placeLeagueNewcomers(
  client: PoolClient,
  deltas: readonly ScoreDelta[],
  boards: ReadonlyMap<string, LeaderboardDefinition>,
): Promise<Map<ScoreDelta, LeaguePlacement>> {
  const placements = new Map<ScoreDelta, LeaguePlacement>();
  const league = deltas.filter((d) => boards.get(boardId(d.environmentId, d.boardKey))?.league);
  if (league.length === 0) return placements;
  const existing = await existingPlayers(client, league);
  const newcomers = league.filter((d) => !existing.has(playerPeriodKey(d)));
  const tiers = await currentTiers(client, newcomers);
  const bySlot = new Map<string, ScoreDelta[]>();
  for (const d of newcomers) {
    const board = boards.get(boardId(d.environmentId, d.boardKey))!;
    const stored = tiers.get(JSON.stringify([d.environmentId, d.boardKey, d.playerId])) ?? 0;
    const tier = Math.min(stored, board.league!.tiers.length - 1);
    const slot = JSON.stringify([d.environmentId, d.boardKey, d.periodStart, tier]);
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), d]);
    placements.set(d, { tier, groupNo: 0 });
  }
  for (const [slot, members] of [...bySlot].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [environmentId, boardKey, periodStart, tier] = JSON.parse(slot) as [string, string, number, number];
    const groupSize = boards.get(boardId(environmentId, boardKey))!.league!.groupSize;
    const first = await reserveArrivals(
      client,
      { environmentId, boardKey, periodStart, tier },
      members.length,
    );
    members.forEach((d, i) => {
      placements.set(d, { tier, groupNo: groupOfArrival(first + i, groupSize) });
    });
  }
  return placements;
}
