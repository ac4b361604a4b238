import { describe, expect, it } from 'vitest';
import { Generations } from '../src/application/reading/read-caches.ts';

describe('Generations (the bounded store behind the read caches)', () => {
  it('keeps at most its size: the older generation is dropped whole', () => {
    const cache = new Generations<number>(4);
    for (let i = 0; i < 6; i++) cache.set('env', `p${i}`, i, 0);
    // Two generations of two: p0..p1 dropped, p2..p5 kept.
    expect(['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((p) => cache.get('env', p, 0))).toEqual([
      undefined,
      undefined,
      2,
      3,
      4,
      5,
    ]);
    expect(cache.get('other', 'p5', 0)).toBeUndefined();
  });

  it('never serves an entry older than its age bound', () => {
    const cache = new Generations<string>(100, 1_000);
    cache.set('env', 'early', 'a', 0);
    cache.set('env', 'later', 'b', 499);
    expect(cache.get('env', 'early', 500)).toBe('a'); // rotated: both now in the older generation
    cache.set('env', 'fresh', 'c', 600);
    expect(cache.get('env', 'early', 999)).toBe('a');
    expect(cache.get('env', 'early', 1_000)).toBeUndefined();
    expect(cache.get('env', 'later', 1_000)).toBeUndefined();
    expect(cache.get('env', 'fresh', 1_000)).toBe('c');
    expect(cache.get('env', 'fresh', 1_600)).toBeUndefined();
  });
});
