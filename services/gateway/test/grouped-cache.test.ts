import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupedTtlCache } from '../src/grouped-cache.ts';

describe('grouped TTL cache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps entries apart by group', () => {
    const cache = new GroupedTtlCache<string, string, number>({ ttlMs: 60_000, maxEntries: 10 });
    cache.set('env-a', 'p1', 1);
    cache.set('env-b', 'p1', 2);
    expect(cache.groupView('env-a')('p1')).toBe(1);
    expect(cache.groupView('env-b')('p1')).toBe(2);
    expect(cache.groupView('env-c')('p1')).toBeUndefined();
    expect(cache.groupView('env-a')('p2')).toBeUndefined();
  });

  it('forgets an entry once its time is up', () => {
    vi.useFakeTimers({ now: 0 });
    const cache = new GroupedTtlCache<string, string, number>({ ttlMs: 1_000, maxEntries: 10 });
    cache.set('env', 'p', 1);
    vi.setSystemTime(999);
    expect(cache.groupView('env')('p')).toBe(1);
    vi.setSystemTime(1_000);
    expect(cache.groupView('env')('p')).toBeUndefined();
  });

  it('stays within its size over all groups, dropping the oldest entry of the group written', () => {
    const cache = new GroupedTtlCache<string, string, number>({ ttlMs: 60_000, maxEntries: 3 });
    cache.set('a', 'p1', 1);
    cache.set('a', 'p2', 2);
    cache.set('b', 'p1', 3);
    cache.set('a', 'p2', 20); // a replacement takes no room
    cache.set('a', 'p3', 4);
    expect(['p1', 'p2', 'p3'].map(cache.groupView('a'))).toEqual([undefined, 20, 4]);
    expect(cache.groupView('b')('p1')).toBe(3);
    cache.set('c', 'p1', 5); // a new group takes from the oldest group
    expect(['p1', 'p2', 'p3'].map(cache.groupView('a'))).toEqual([undefined, undefined, 4]);
    expect(cache.groupView('b')('p1')).toBe(3);
    expect(cache.groupView('c')('p1')).toBe(5);
  });

  it('stores nothing without a time to live', () => {
    const cache = new GroupedTtlCache<string, string, number>({ ttlMs: 0, maxEntries: 10 });
    cache.set('env', 'p', 1);
    expect(cache.groupView('env')('p')).toBeUndefined();
  });
});
