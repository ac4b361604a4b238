import { type AcceptedEvent, formatUnscaled, parseUnscaled } from '@engage/contracts';
import type { Aggregation, LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import { inSeason } from './periods.ts';

const SCALE = 8;

/** One event scoring on one board, before its period is known. */
export interface BoardHit {
  environmentId: string;
  organizationId: string;
  boardKey: string;
  playerId: string;
  /** receivedAt of the event (ms): the gateway's clock decides the period, callers cannot backdate. */
  at: number;
  /** The scored value as a scaled integer (8 decimal places). */
  value: bigint;
  teamKey: string | null;
}

export type ScoredEvent = Pick<
  AcceptedEvent,
  'environmentId' | 'organizationId' | 'playerId' | 'eventKey' | 'receivedAt' | 'properties'
>;

/**
 * The hits a batch of events makes on the environment's boards, in event order. An event scores on
 * every active board whose source is its event key, inside the season, (unless the board counts)
 * only when it carries the board's numeric property, and only when that property is within the
 * source's bounds, if it has any (`outOfBounds` hears of each event dropped by them).
 */
export function boardHits(
  events: readonly ScoredEvent[],
  boardsOf: (environmentId: string) => readonly LeaderboardDefinition[],
  outOfBounds: (board: LeaderboardDefinition, event: ScoredEvent) => void = () => {},
): BoardHit[] {
  const hits: BoardHit[] = [];
  for (const event of events) {
    const at = Date.parse(event.receivedAt);
    for (const board of boardsOf(event.environmentId)) {
      if (!board.active || board.scoreSource.event !== event.eventKey || !inSeason(board, at)) continue;
      const value = scoredValue(board, event);
      if (value === undefined) continue;
      if (value === OUTSIDE_BOUNDS) {
        outOfBounds(board, event);
        continue;
      }
      const team = board.team ? event.properties[board.team.property] : undefined;
      hits.push({
        environmentId: event.environmentId,
        organizationId: event.organizationId,
        boardKey: board.key,
        playerId: event.playerId,
        at,
        value,
        teamKey: team?.type === 'String' ? team.string : null,
      });
    }
  }
  return hits;
}

const ONE = 10n ** BigInt(SCALE);
const OUTSIDE_BOUNDS = Symbol('outside the bounds');

/**
 * What the event scores on the board (scaled): 1 on a counting board, else its property's value;
 * undefined when it does not score (no such numeric property); OUTSIDE_BOUNDS when the source has
 * bounds (inclusive) and the property is outside them. A bounded board, counting ones too, scores
 * only events whose property is there and inside them.
 */
function scoredValue(
  board: LeaderboardDefinition,
  event: ScoredEvent,
): bigint | typeof OUTSIDE_BOUNDS | undefined {
  const bounds = boundsOf(board.scoreSource);
  if (board.aggregation === 'Count' && !bounds) return ONE;
  const name = board.scoreSource.property;
  const property = name ? event.properties[name] : undefined;
  const value = property?.type === 'Number' ? parseUnscaled(property.number, SCALE) : undefined;
  if (value === undefined) return undefined;
  if (
    bounds &&
    ((bounds.min !== undefined && value < bounds.min) || (bounds.max !== undefined && value > bounds.max))
  ) {
    return OUTSIDE_BOUNDS;
  }
  return board.aggregation === 'Count' ? ONE : value;
}

type ScoreSource = LeaderboardDefinition['scoreSource'];
type ScaledBounds = { min: bigint | undefined; max: bigint | undefined };
/** Each bounded score source's bounds, scaled once (definitions are kept and reused between batches). */
const scaledBounds = new WeakMap<ScoreSource, ScaledBounds>();

/** The source's bounds as scaled integers, compared exactly: each bound's double to 8 decimals. */
function boundsOf(source: ScoreSource): ScaledBounds | undefined {
  if (source.minValue === undefined && source.maxValue === undefined) return undefined;
  let bounds = scaledBounds.get(source);
  if (!bounds) {
    const scaled = (bound: number | undefined) =>
      bound === undefined ? undefined : parseUnscaled(bound.toFixed(SCALE), SCALE)!;
    bounds = { min: scaled(source.minValue), max: scaled(source.maxValue) };
    scaledBounds.set(source, bounds);
  }
  return bounds;
}

/** What a batch changes of one player's score in one period, to be merged with the stored score. */
export interface ScoreDelta {
  environmentId: string;
  boardKey: string;
  periodStart: number;
  playerId: string;
  aggregation: Aggregation;
  /** Sum/Count: the amount to add; Max/Min: the batch's best; Latest: the last value. Exact decimal text. */
  value: string;
  /** When `value` was reached within the batch. */
  reachedAt: number;
  teamKey: string | null;
}

/** Folds a batch's hits (in event order, each with its period) into one delta per player and period. */
export function foldHits(
  hits: readonly (BoardHit & { periodStart: number })[],
  aggregationOf: (environmentId: string, boardKey: string) => Aggregation,
): ScoreDelta[] {
  const deltas = new Map<string, { delta: ScoreDelta; value: bigint }>();
  for (const hit of hits) {
    const key = `${hit.environmentId}\u0000${hit.boardKey}\u0000${hit.periodStart}\u0000${hit.playerId}`;
    const aggregation = aggregationOf(hit.environmentId, hit.boardKey);
    const entry = deltas.get(key);
    if (!entry) {
      deltas.set(key, {
        value: hit.value,
        delta: {
          environmentId: hit.environmentId,
          boardKey: hit.boardKey,
          periodStart: hit.periodStart,
          playerId: hit.playerId,
          aggregation,
          value: '',
          reachedAt: hit.at,
          teamKey: hit.teamKey,
        },
      });
      continue;
    }
    entry.delta.teamKey ??= hit.teamKey;
    const next = combine(aggregation, entry.value, hit.value);
    if (
      next !== entry.value ||
      aggregation === 'Sum' ||
      aggregation === 'Count' ||
      aggregation === 'Latest'
    ) {
      entry.delta.reachedAt = hit.at;
    }
    entry.value = next;
  }
  return [...deltas.values()].map(({ delta, value }) => ({ ...delta, value: formatUnscaled(value, SCALE) }));
}

function combine(aggregation: Aggregation, current: bigint, value: bigint): bigint {
  switch (aggregation) {
    case 'Sum':
    case 'Count':
      return current + value;
    case 'Max':
      return value > current ? value : current;
    case 'Min':
      return value < current ? value : current;
    case 'Latest':
      return value;
  }
}

/** The `displayName` string property of events: the newest per player, shown on boards. */
export function displayNamesFrom(
  events: readonly ScoredEvent[],
): Map<string, { environmentId: string; playerId: string; displayName: string }> {
  const names = new Map<string, { environmentId: string; playerId: string; displayName: string }>();
  for (const e of events) {
    const name = e.properties.displayName;
    if (name?.type !== 'String' || name.string.length === 0) continue;
    names.set(`${e.environmentId}:${e.playerId}`, {
      environmentId: e.environmentId,
      playerId: e.playerId,
      displayName: name.string.slice(0, 100),
    });
  }
  return names;
}
