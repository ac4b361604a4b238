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
      const bounded = boundedValue(board, event);
      if (bounded === 'missing') continue;
      if (bounded === 'outside') {
        outOfBounds(board, event);
        continue;
      }
      const value = scoredValue(board, event);
      if (value === undefined) continue;
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

function scoredValue(board: LeaderboardDefinition, event: ScoredEvent): bigint | undefined {
  if (board.aggregation === 'Count') return 10n ** BigInt(SCALE);
  return propertyValue(board, event);
}

function propertyValue(board: LeaderboardDefinition, event: ScoredEvent): bigint | undefined {
  const property = board.scoreSource.property ? event.properties[board.scoreSource.property] : undefined;
  return property?.type === 'Number' ? parseUnscaled(property.number, SCALE) : undefined;
}

/**
 * Where the event's property stands against the source's bounds (inclusive), compared exactly: the
 * bound's double to 8 decimals, the event's value as its decimal text. `inside` without bounds; a
 * bounded board, counting ones too, scores only events whose property is there and inside them.
 */
function boundedValue(board: LeaderboardDefinition, event: ScoredEvent): 'inside' | 'outside' | 'missing' {
  const { minValue, maxValue } = board.scoreSource;
  if (minValue === undefined && maxValue === undefined) return 'inside';
  const value = propertyValue(board, event);
  if (value === undefined) return 'missing';
  const inside =
    (minValue === undefined || value >= scaledBound(minValue)) &&
    (maxValue === undefined || value <= scaledBound(maxValue));
  return inside ? 'inside' : 'outside';
}

const scaledBound = (bound: number): bigint => parseUnscaled(bound.toFixed(SCALE), SCALE)!;

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
    const key = JSON.stringify([hit.environmentId, hit.boardKey, hit.periodStart, hit.playerId]);
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
