import { describe, expect, it } from 'vitest';
import { estimatedBytes, ProgressCache } from '../src/application/progress-cache.ts';
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

describe('the progress cache', () => {
  it('hands a player over once, and only at the revision it holds', () => {
    const cache = new ProgressCache(1024 * 1024);
    const state = stored(2);
    cache.set('a', state, 'r1');
    expect(cache.revisionOf('a')).toBe('r1');
    expect(cache.take('a', 'r2')).toBeUndefined();
    expect(cache.revisionOf('a')).toBeNull();
    cache.set('a', state, 'r1');
    expect(cache.take('a', 'r1')).toBe(state);
    expect(cache.take('a', 'r1')).toBeUndefined();
  });

  it('holds at most its budget, always keeping the players written last', () => {
    const perPlayer = estimatedBytes(stored(2));
    const cache = new ProgressCache(100 * perPlayer);
    for (let i = 0; i < 1_000; i++) cache.set(`p${i}`, stored(2), `r${i}`);
    const kept = Array.from({ length: 1_000 }, (_, i) => i).filter((i) => cache.revisionOf(`p${i}`) !== null);
    expect(kept.length).toBeLessThanOrEqual(100);
    // The last half-budget of players written is never dropped.
    for (let i = 1_000 - 49; i < 1_000; i++) expect(kept).toContain(i);
  });

  it('holds fewer players that weigh more: the budget is memory, not players', () => {
    const cache = new ProgressCache(100 * estimatedBytes(stored(2)));
    for (let i = 0; i < 1_000; i++) cache.set(`p${i}`, stored(40), `r${i}`);
    const kept = Array.from({ length: 1_000 }, (_, i) => `p${i}`).filter((k) => cache.revisionOf(k) !== null);
    expect(kept.length).toBeLessThan(100 / 4);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('keeps nothing with a budget of 0', () => {
    const cache = new ProgressCache(0);
    cache.set('a', stored(1), 'r1');
    expect(cache.revisionOf('a')).toBeNull();
  });
});
