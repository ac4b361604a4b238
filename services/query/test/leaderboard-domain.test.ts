import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { acceptedEvent, numberProperty, stringProperty } from '@engage/testkit/events.ts';
import { describe, expect, it } from 'vitest';
import { rankNamed } from '../src/application/reading/view.ts';
import { leagueMovement } from '../src/domain/league.ts';
import { inSeason, periodAt, scheduledPeriod } from '../src/domain/periods.ts';
import { decodeRankScore, encodeRankScore, scaledScore } from '../src/domain/rank-score.ts';
import { boardHits, foldHits } from '../src/domain/scoring.ts';

const board = (over: Record<string, unknown> = {}): LeaderboardDefinition =>
  LeaderboardDefinitionSchema.parse({
    key: 'b',
    name: 'B',
    scoreSource: { type: 'Event', event: 'scored', property: 'points' },
    ...over,
  });
const at = (iso: string) => Date.parse(iso);

describe('periods', () => {
  it('resets daily, weekly (from Monday) and monthly at UTC boundaries', () => {
    const t = at('2026-11-19T15:00:00Z'); // a Thursday
    expect(scheduledPeriod(board({ period: { reset: 'Daily' } }), t)).toEqual({
      start: at('2026-11-19T00:00:00Z'),
      end: at('2026-11-20T00:00:00Z'),
    });
    expect(scheduledPeriod(board({ period: { reset: 'Weekly' } }), t)).toEqual({
      start: at('2026-11-16T00:00:00Z'),
      end: at('2026-11-23T00:00:00Z'),
    });
    expect(scheduledPeriod(board({ period: { reset: 'Monthly' } }), t)).toEqual({
      start: at('2026-11-01T00:00:00Z'),
      end: at('2026-12-01T00:00:00Z'),
    });
    const custom = board({
      period: { reset: 'Custom', everyMinutes: 90, anchorUtc: '2026-11-19T00:30:00Z' },
    });
    expect(scheduledPeriod(custom, t)).toEqual({
      start: at('2026-11-19T14:00:00Z'),
      end: at('2026-11-19T15:30:00Z'),
    });
  });

  it('clips periods to the season and answers whether a moment is in it', () => {
    const seasonal = board({
      period: { reset: 'Monthly' },
      season: { startsAtUtc: '2026-11-10T00:00:00Z', endsAtUtc: '2026-11-20T00:00:00Z' },
    });
    expect(scheduledPeriod(seasonal, at('2026-11-15T00:00:00Z'))).toEqual({
      start: at('2026-11-10T00:00:00Z'),
      end: at('2026-11-20T00:00:00Z'),
    });
    expect(inSeason(seasonal, at('2026-11-19T23:59:59Z'))).toBe(true);
    expect(inSeason(seasonal, at('2026-11-20T00:00:00Z'))).toBe(false);
    expect(scheduledPeriod(board(), at('2026-11-15T00:00:00Z'))).toEqual({ start: 0, end: null });
  });

  it('starts the next period at a cut (sandbox settle) and ends it on schedule', () => {
    const daily = board({ period: { reset: 'Daily' } });
    const cut = { start: at('2026-11-19T00:00:00Z'), end: at('2026-11-19T12:00:00Z') };
    expect(periodAt(daily, at('2026-11-19T11:00:00Z'), cut)).toBe(cut);
    expect(periodAt(daily, at('2026-11-19T13:00:00Z'), cut)).toEqual({
      start: at('2026-11-19T12:00:00Z'),
      end: at('2026-11-20T00:00:00Z'),
    });
    expect(periodAt(daily, at('2026-11-20T01:00:00Z'), cut).start).toBe(at('2026-11-20T00:00:00Z'));
    const endless = { start: 0, end: at('2026-11-19T12:00:00Z') };
    expect(periodAt(board(), at('2026-11-19T13:00:00Z'), endless)).toEqual({ start: endless.end, end: null });
  });
});

describe('rank scores', () => {
  const scale = { decimals: 2, lowestFirst: false, periodStart: 0, periodEnd: 86_400_000 };

  it('orders by score, then by who reached it first, and decodes the score', () => {
    const early = encodeRankScore(scale, 12.34, 1_000);
    const late = encodeRankScore(scale, 12.34, 60_000);
    const higher = encodeRankScore(scale, 12.35, 80_000_000);
    expect(early).toBeGreaterThan(late);
    expect(higher).toBeGreaterThan(early);
    expect(decodeRankScore(scale, early)).toBe(12.34);
    expect(decodeRankScore(scale, encodeRankScore(scale, -7.5, 5))).toBe(-7.5);
    expect(Number.isSafeInteger(encodeRankScore(scale, 42_949_672.95, 0))).toBe(true);
  });

  it('rounds the exact decimal half away from zero, as Postgres does at settlement', () => {
    expect(scaledScore('1.005', 2)).toBe(101);
    expect(scaledScore(1.005, 2)).toBe(101);
    expect(scaledScore('-7.5', 0)).toBe(-8);
    expect(scaledScore('5.04', 1)).toBe(scaledScore('5.01', 1));
    expect(scaledScore('12345678901234567890.12345678', 0)).toBeGreaterThan(2 ** 32);
    expect(decodeRankScore(scale, encodeRankScore(scale, '1.005', 0))).toBe(1.01);
  });

  it('ranks the lowest score first on LowestFirst boards', () => {
    const lowest = { ...scale, lowestFirst: true };
    expect(encodeRankScore(lowest, 59.5, 10_000)).toBeGreaterThan(encodeRankScore(lowest, 60, 0));
    expect(decodeRankScore(lowest, encodeRankScore(lowest, 59.5, 10_000))).toBe(59.5);
  });
});

describe('named players', () => {
  const row = (rowKey: string, order: number) => ({ rank: 0, rowKey, displayName: null, score: 1, order });

  it('ranks tied players as the board does, whatever the order they were asked in', () => {
    const asked = [row('ann', -5), row('bob', -5), row('zoe', -9), row('éva', -5), row('cy', -1)];
    const ranked = rankNamed(asked, 'bob');
    // Ties: player id in descending byte order (Redis's order of equal scores in a reverse range).
    expect(ranked.map((r) => [r.rank, r.playerId])).toEqual([
      [1, 'zoe'],
      [2, 'éva'],
      [3, 'bob'],
      [4, 'ann'],
      [5, 'cy'],
    ]);
    expect(rankNamed([...asked].reverse(), 'bob')).toEqual(ranked);
  });
});

describe('scoring', () => {
  const env = {
    organizationId: crypto.randomUUID(),
    environmentId: crypto.randomUUID(),
    environmentKind: 'Sandbox' as const,
  };
  const scored = (player: string, points: string, team?: string) =>
    acceptedEvent(env, player, {
      eventKey: 'scored',
      properties: { points: numberProperty(points), ...(team ? { team: stringProperty(team) } : {}) },
    });

  it('folds a batch per player with each aggregation', () => {
    const events = [scored('a', '5'), scored('a', '30', 'red'), scored('a', '7'), scored('b', '1')];
    const fold = (aggregation: string) => {
      const def = board({ aggregation, team: { property: 'team' } });
      const hits = boardHits(events, () => [def]).map((h) => ({ ...h, periodStart: 0 }));
      return foldHits(hits, () => def.aggregation).map((d) => [d.playerId, d.value, d.teamKey]);
    };
    expect(fold('Sum')).toEqual([
      ['a', '42', 'red'],
      ['b', '1', null],
    ]);
    expect(fold('Max')[0]).toEqual(['a', '30', 'red']);
    expect(fold('Min')[0]).toEqual(['a', '5', 'red']);
    expect(fold('Latest')[0]).toEqual(['a', '7', 'red']);
    expect(fold('Count')[0]).toEqual(['a', '3', 'red']);
  });

  it('ignores other events, switched-off boards, events outside the season and events without the property', () => {
    const events = [
      acceptedEvent(env, 'a', { eventKey: 'other' }),
      acceptedEvent(env, 'a', { eventKey: 'scored' }),
    ];
    expect(boardHits(events, () => [board()])).toEqual([]);
    expect(boardHits([scored('a', '1')], () => [board({ active: false })])).toEqual([]);
    expect(
      boardHits([scored('a', '1')], () => [board({ season: { endsAtUtc: '2020-01-01T00:00:00Z' } })]),
    ).toEqual([]);
  });

  it("drops events whose property is outside the source's bounds, compared exactly, and says which", () => {
    const bounded = board({
      scoreSource: { type: 'Event', event: 'scored', property: 'points', minValue: -0.5, maxValue: 1000 },
    });
    const events = [
      scored('a', '1000'),
      scored('b', '1000.00000001'),
      scored('c', '-0.5'),
      scored('d', '-0.50000001'),
      scored('e', '99999999999999999999'),
      acceptedEvent(env, 'f', { eventKey: 'scored' }),
    ];
    const dropped: string[] = [];
    const hits = boardHits(
      events,
      () => [bounded],
      (b, event) => dropped.push(`${b.key}:${event.playerId}`),
    );
    expect(hits.map((h) => h.playerId)).toEqual(['a', 'c']);
    // f carries no value to bound: it does not score, as on any board, and is not counted as dropped.
    expect(dropped).toEqual(['b:b', 'b:d', 'b:e']);
    // A counting board with bounds counts only the events whose property is there and inside them.
    const counting = board({
      aggregation: 'Count',
      scoreSource: { type: 'Event', event: 'scored', property: 'points', maxValue: 10 },
    });
    const unscored = acceptedEvent(env, 'c', { eventKey: 'scored' });
    expect(
      boardHits([scored('a', '10'), scored('b', '11'), unscored], () => [counting]).map((h) => h.playerId),
    ).toEqual(['a']);
  });

  it('refuses bounds without a property to bound, and a maximum below the minimum', () => {
    const issues = (scoreSource: Record<string, unknown>, aggregation = 'Sum') =>
      LeaderboardDefinitionSchema.safeParse({
        key: 'b',
        name: 'B',
        aggregation,
        scoreSource,
      }).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ type: 'Event', event: 'scored', maxValue: 5 }, 'Count')).toEqual([
      ['scoreSource.maxValue', 'bounds apply to the scored property: name one'],
    ]);
    expect(issues({ type: 'Event', event: 'scored', property: 'points', minValue: 5, maxValue: 4 })).toEqual([
      ['scoreSource.maxValue', 'maxValue is below minValue'],
    ]);
    expect(issues({ type: 'Event', event: 'scored', property: 'points', maxValue: 1e16 })?.[0]?.[0]).toBe(
      'scoreSource.maxValue',
    );
  });
});

describe('league movements', () => {
  const league = board({
    league: {
      groupSize: 5,
      tiers: [
        { key: 'bronze', promote: 2, relegate: 2 },
        { key: 'silver', promote: 1, relegate: 1 },
        { key: 'gold', promote: 3, relegate: 2 },
      ],
    },
  }).league!;

  it('promotes the top and relegates the bottom, never below the lowest or above the highest tier', () => {
    expect([1, 2, 3, 4, 5].map((rank) => leagueMovement(league, 0, rank, 5).movement)).toEqual([
      'Promoted',
      'Promoted',
      'Stayed',
      'Stayed',
      'Stayed',
    ]);
    expect([1, 2, 3, 4, 5].map((rank) => leagueMovement(league, 1, rank, 5))).toEqual([
      { movement: 'Promoted', nextTier: 2 },
      { movement: 'Stayed', nextTier: 1 },
      { movement: 'Stayed', nextTier: 1 },
      { movement: 'Stayed', nextTier: 1 },
      { movement: 'Relegated', nextTier: 0 },
    ]);
    expect([1, 2, 3, 4, 5].map((rank) => leagueMovement(league, 2, rank, 5).movement)).toEqual([
      'Stayed',
      'Stayed',
      'Stayed',
      'Relegated',
      'Relegated',
    ]);
    expect(leagueMovement(league, 1, 1, 1).movement).toBe('Promoted');
  });
});
