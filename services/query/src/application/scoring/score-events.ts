import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import { Counter, metricsRegistry } from '@engage/kit';
import type { PoolClient } from '@engage/postgres';
import { groupOfArrival } from '../../domain/league.ts';
import { type Period, periodAt, periodContains } from '../../domain/periods.ts';
import {
  type BoardHit,
  boardHits,
  displayNamesFrom,
  foldHits,
  type ScoreDelta,
  type ScoredEvent,
} from '../../domain/scoring.ts';
import { loadVersionedDefinitions, type VersionedDefinitions } from '../../store/definitions.ts';
import {
  type BoardRef,
  lockPeriods,
  openPeriodsForScoring,
  recentPeriods,
  type StoredPeriod,
} from '../../store/periods.ts';
import {
  currentTiers,
  existingPlayers,
  type LeaguePlacement,
  mergeScores,
  playerPeriodKey,
  reserveArrivals,
  type ScoredPeriod,
  type ScoreRow,
  saveDisplayNames,
} from '../../store/scores.ts';
import type { ScoringMemory } from './scoring-memory.ts';

/** Unlabelled: board keys are the tenants' own, so a label per board would grow without bound. */
const eventsOutOfBounds = new Counter({
  name: 'query_score_events_out_of_bounds_total',
  help: "Events that did not score on a board because their property was outside the board's score source bounds (one per event and board).",
  registers: [metricsRegistry],
});

export interface ScoredBatch {
  /** The merged rows as committed: what Redis mirrors. */
  rows: ScoreRow[];
  /** The mirror tickets listing `rows` (one per period scored into), closed once Redis has them. */
  ticketIds: string[];
  names: { environmentId: string; playerId: string; displayName: string }[];
  /** Events dropped because their period was already settled. */
  late: number;
}

const boardId = (environmentId: string, boardKey: string) => `${environmentId}\u0000${boardKey}`;
const periodId = (board: BoardRef, start: number) =>
  `${boardId(board.environmentId, board.boardKey)}\u0000${start}`;

type PlacedHit = BoardHit & { periodStart: number };

/** A batch's hits in their periods, with the definitions they were found with. */
interface ScoringPlan {
  boards: Map<string, LeaderboardDefinition>;
  hits: PlacedHit[];
  /** The periods the hits fall in, as stored. */
  periods: StoredPeriods;
  /** Hits dropped because their period was already settled. */
  late: number;
}

/**
 * Scores a batch of accepted events on the environments' boards, inside the consumer's transaction:
 * places each hit in its period (creating and share-locking the periods), drops hits on settled
 * periods, assigns league newcomers their group, and merges one delta per player and period. With
 * `memory` (the consumer's), a batch on boards and periods met before skips reading definitions and
 * periods: its one period-locking statement checks them instead (see ScoringMemory).
 */
export async function scoreEvents(
  client: PoolClient,
  events: readonly ScoredEvent[],
  memory?: ScoringMemory,
): Promise<ScoredBatch> {
  const names = [...displayNamesFrom(events).values()];
  await saveDisplayNames(client, names);
  const environmentIds = [...new Set(events.map((e) => e.environmentId))];
  const remembered = memory?.definitionsOf(environmentIds);
  let plan = memory && remembered ? await planFromMemory(client, events, remembered, memory) : undefined;
  if (!plan) {
    memory?.forget(environmentIds);
    plan = await planFromStore(client, events, environmentIds, memory);
  }
  if (plan.hits.length === 0 && plan.late === 0) return { rows: [], ticketIds: [], names, late: 0 };

  const { boards, periods } = plan;
  const deltas = foldHits(plan.hits, (environmentId, boardKey) => {
    return boards.get(boardId(environmentId, boardKey))?.aggregation ?? 'Sum';
  });
  const placements = await placeLeagueNewcomers(client, deltas, boards);
  const { rows, ticketIds } = await mergeScores(
    client,
    deltas,
    placements,
    (d) => periods.get(d.environmentId)!.get(d.boardKey)!.get(d.periodStart)!,
  );
  return { rows, ticketIds, names, late: plan.late };
}

function boardsById(definitions: ReadonlyMap<string, VersionedDefinitions>) {
  const boards = new Map<string, LeaderboardDefinition>();
  for (const [environmentId, { boards: list }] of definitions) {
    for (const board of list) boards.set(boardId(environmentId, board.key), board);
  }
  return boards;
}

const hitsOf = (events: readonly ScoredEvent[], definitions: ReadonlyMap<string, VersionedDefinitions>) =>
  boardHits(
    events,
    (environmentId) => definitions.get(environmentId)?.boards ?? [],
    () => eventsOutOfBounds.inc(),
  );

/** The uncached way: definitions and recent periods read, periods created and locked. */
async function planFromStore(
  client: PoolClient,
  events: readonly ScoredEvent[],
  environmentIds: readonly string[],
  memory: ScoringMemory | undefined,
): Promise<ScoringPlan> {
  const definitions = await loadVersionedDefinitions(client, environmentIds);
  memory?.rememberDefinitions(definitions);
  const boards = boardsById(definitions);
  const hits = hitsOf(events, definitions);
  if (hits.length === 0) return { boards, hits: [], periods: storedPeriods([]), late: 0 };

  const touched = [...new Map(hits.map((h) => [boardId(h.environmentId, h.boardKey), h])).values()];
  const recent = new Map<string, Period[]>();
  for (const p of await recentPeriods(client, touched)) {
    const id = boardId(p.environmentId, p.boardKey);
    recent.set(id, [...(recent.get(id) ?? []), p]);
  }
  const { placed, wanted } = placeHits(hits, boards, (id) => recent.get(id) ?? []);
  const stored = await openPeriodsForScoring(client, wanted);
  rememberStored(memory, stored);
  const periods = storedPeriods(stored);
  const settled = new Set(stored.filter((p) => p.state === 'settled').map((p) => periodId(p, p.start)));
  if (settled.size === 0) return { boards, hits: placed, periods, late: 0 };
  const open = placed.filter((h) => !settled.has(periodId(h, h.periodStart)));
  return { boards, hits: open, periods, late: placed.length - open.length };
}

/**
 * With remembered definitions and periods: one statement locks the periods and reads the
 * definitions' fingerprint. Undefined (score the uncached way) when a hit falls in a period memory
 * does not hold, the definitions changed, or a period is not stored, not open, or not as remembered.
 */
async function planFromMemory(
  client: PoolClient,
  events: readonly ScoredEvent[],
  definitions: ReadonlyMap<string, VersionedDefinitions>,
  memory: ScoringMemory,
): Promise<ScoringPlan | undefined> {
  const hits = hitsOf(events, definitions);
  // Nothing to lock, so nothing to check the definitions with: the uncached way reads them.
  if (hits.length === 0) return undefined;
  const boards = boardsById(definitions);
  const knownOf = (h: BoardRef) => memory.periodsOf(h.environmentId, h.boardKey);
  const { placed, wanted } = placeHits(hits, boards, (_id, hit) => [...knownOf(hit)]);
  // A period new to memory is created the uncached way: never with definitions not checked yet.
  const remembered = (w: BoardRef & Period) => knownOf(w).some((p) => p.start === w.start && p.end === w.end);
  if (!wanted.every(remembered)) return undefined;
  const locked = await lockPeriods(client, wanted, [...definitions.keys()]);
  for (const [environmentId, { fingerprint }] of definitions) {
    if ((locked.fingerprints.get(environmentId) ?? '') !== fingerprint) return undefined;
  }
  const asStored = new Map(locked.periods.map((p) => [periodId(p, p.start), p]));
  for (const w of wanted) {
    const stored = asStored.get(periodId(w, w.start));
    if (stored?.state !== 'open' || stored.end !== w.end) return undefined;
  }
  rememberStored(memory, locked.periods);
  return { boards, hits: placed, periods: storedPeriods(locked.periods), late: 0 };
}

/** By environment, board and start: a delta's period is found without building a key string. */
type StoredPeriods = Map<string, Map<string, Map<number, ScoredPeriod>>>;

function storedPeriods(stored: readonly StoredPeriod[]): StoredPeriods {
  const periods: StoredPeriods = new Map();
  for (const p of stored) {
    const boards = periods.get(p.environmentId) ?? new Map<string, Map<number, ScoredPeriod>>();
    periods.set(p.environmentId, boards);
    const starts = boards.get(p.boardKey) ?? new Map<number, ScoredPeriod>();
    boards.set(p.boardKey, starts);
    starts.set(p.start, {
      environmentId: p.environmentId,
      boardKey: p.boardKey,
      periodStart: p.start,
      periodEnd: p.end,
    });
  }
  return periods;
}

function rememberStored(memory: ScoringMemory | undefined, stored: readonly StoredPeriod[]): void {
  for (const p of stored) memory?.rememberPeriod(p);
}

/**
 * Each hit's period, given each board's known periods (`knownOf`, read once per board), and the
 * periods the hits fall in (to create and lock).
 */
function placeHits(
  hits: readonly BoardHit[],
  boards: ReadonlyMap<string, LeaderboardDefinition>,
  knownOf: (id: string, hit: BoardHit) => Period[],
): { placed: PlacedHit[]; wanted: (BoardHit & Period)[] } {
  const known = new Map<string, Period[]>();
  const wanted = new Map<string, BoardHit & Period>();
  // Periods never overlap, so a hit inside the period its board's previous hit fell in falls there too.
  const lastPlaced = new Map<string, Period>();
  const placed = hits.map((hit) => {
    const id = boardId(hit.environmentId, hit.boardKey);
    let period = lastPlaced.get(id);
    if (!period || !periodContains(period, hit.at)) {
      if (!known.has(id)) known.set(id, knownOf(id, hit));
      period = periodOfHit(known, id, boards.get(id)!, hit.at);
      wanted.set(periodId(hit, period.start), { ...hit, ...period });
      lastPlaced.set(id, period);
    }
    return { ...hit, periodStart: period.start };
  });
  return { placed, wanted: [...wanted.values()] };
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
