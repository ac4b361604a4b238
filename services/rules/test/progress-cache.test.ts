import { describe, expect, it } from 'vitest';
import { estimatedBytes, type HeldPlayer, ProgressCache } from '../src/application/progress-cache.ts';
import type { StoredProgress } from '../src/store/progress.ts';

const entry = {
  occurrence: 1,
  enteredAt: '2026-01-01T00:00:00.000Z',
  acceptedAt: null,
  countingSince: '2026-01-01T00:00:00.000Z',
  completedAt: null,
  completionShown: false,
  objectives: { n: { value: 1 } },
};

const stored = (missions: number): StoredProgress => ({
  progress: {
    environmentId: 'env',
    playerId: 'p',
    missions: Object.fromEntries(Array.from({ length: missions }, (_, i) => [`m${i}`, { ...entry }])),
    streaks: {},
  },
  layout: [],
});

const held = (missions: number, revision = 'r1'): HeldPlayer => ({
  revision,
  eventsApplied: 1,
  activity: { eventsApplied: 1, lastOccurredAt: '2026-01-01T00:00:00.000Z', appliedEventsDigest: 'd' },
  stored: stored(missions),
});

const committed = (key: string, player: HeldPlayer, partition = 0) => ({ key, partition, held: player });

/** The keys among `keys` the cache holds; taking them out puts them back. */
function heldKeys(cache: ProgressCache, keys: string[]): string[] {
  const found = keys.flatMap((key) => {
    const player = cache.take(key);
    return player ? [[key, player] as const] : [];
  });
  cache.keep(found.map(([key, player]) => committed(key, player)));
  return found.map(([key]) => key);
}

describe('the progress cache', () => {
  it('hands a player over once, as last kept', () => {
    const cache = new ProgressCache(1024 * 1024);
    const first = held(2, 'r1');
    const second = held(2, 'r2');
    cache.keep([committed('a', first)]);
    cache.keep([committed('a', second)]);
    expect(cache.take('a')).toBe(second);
    expect(cache.take('a')).toBeUndefined();
  });

  it('holds at most its budget, always keeping the players kept last', () => {
    const perPlayer = estimatedBytes(stored(2));
    const cache = new ProgressCache(100 * perPlayer);
    const keys = Array.from({ length: 1_000 }, (_, i) => `p${i}`);
    for (const key of keys) cache.keep([committed(key, held(2))]);
    const kept = heldKeys(cache, keys);
    expect(kept.length).toBeLessThanOrEqual(100);
    // The last half-budget of players kept is never dropped.
    for (const key of keys.slice(-49)) expect(kept).toContain(key);
  });

  it('holds fewer players that weigh more: the budget is memory, not players', () => {
    const cache = new ProgressCache(100 * estimatedBytes(stored(2)));
    const keys = Array.from({ length: 1_000 }, (_, i) => `p${i}`);
    for (const key of keys) cache.keep([committed(key, held(40))]);
    const kept = heldKeys(cache, keys);
    expect(kept.length).toBeLessThan(100 / 4);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('forgets the players of the partitions a rebalance took away', () => {
    const cache = new ProgressCache(1024 * 1024);
    cache.keep([committed('a', held(1), 0), committed('b', held(1), 1), committed('c', held(1), 2)]);
    cache.retainPartitions([0, 2]);
    expect(heldKeys(cache, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('keeps nothing with a budget of 0', () => {
    const cache = new ProgressCache(0);
    cache.keep([committed('a', held(1))]);
    expect(cache.take('a')).toBeUndefined();
  });
});
