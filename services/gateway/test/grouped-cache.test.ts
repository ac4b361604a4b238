import { describe, expect, it } from 'vitest';
import { GroupedLruCache } from '../src/application/cache/grouped-lru-cache.ts';

describe('grouped LRU cache', () => {
  it('keeps entries apart by group', () => {
    const cache = new GroupedLruCache<string, string, number>({ maxEntries: 10 });
    cache.set('env-a', 'p1', 1);
    cache.set('env-b', 'p1', 2);
    expect(cache.groupView('env-a')('p1')).toBe(1);
    expect(cache.groupView('env-b')('p1')).toBe(2);
    expect(cache.groupView('env-c')('p1')).toBeUndefined();
    expect(cache.groupView('env-a')('p2')).toBeUndefined();
  });

  it('stays within its size over all groups, dropping the least recently used entry of the group written', () => {
    const cache = new GroupedLruCache<string, string, number>({ maxEntries: 3 });
    cache.set('a', 'p1', 1);
    cache.set('a', 'p2', 2);
    cache.set('b', 'p1', 3);
    cache.set('a', 'p2', 20); // a replacement takes no room
    expect(cache.get('a', 'p1')).toBe(1); // used: p2 is now the least recently used of a
    cache.set('a', 'p3', 4);
    expect(['p1', 'p2', 'p3'].map(cache.groupView('a'))).toEqual([1, undefined, 4]);
    expect(cache.groupView('b')('p1')).toBe(3);
    cache.set('c', 'p1', 5); // a new group takes from the oldest group
    expect(['p1', 'p2', 'p3'].map(cache.groupView('a'))).toEqual([undefined, undefined, 4]);
    expect(cache.groupView('b')('p1')).toBe(3);
    expect(cache.groupView('c')('p1')).toBe(5);
  });

  it('forgets an entry deleted, and everything when cleared', () => {
    const cache = new GroupedLruCache<string, string, number>({ maxEntries: 2 });
    cache.set('a', 'p1', 1);
    cache.set('a', 'p2', 2);
    cache.delete('a', 'p1');
    cache.set('b', 'p1', 3); // the deleted entry's room is free
    expect([cache.get('a', 'p1'), cache.get('a', 'p2'), cache.get('b', 'p1')]).toEqual([undefined, 2, 3]);
    cache.clear();
    expect([cache.get('a', 'p2'), cache.get('b', 'p1')]).toEqual([undefined, undefined]);
  });

  it('stores nothing with a size of 0', () => {
    const cache = new GroupedLruCache<string, string, number>({ maxEntries: 0 });
    cache.set('env', 'p', 1);
    expect(cache.groupView('env')('p')).toBeUndefined();
  });
});
