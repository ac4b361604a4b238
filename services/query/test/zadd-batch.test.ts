import { describe, expect, it } from 'vitest';
import { ZaddBatch } from '../src/boards/zadd-batch.ts';

describe('ZaddBatch', () => {
  it('gathers the pairs of each sorted set in the order added, one entry per set', () => {
    const batch = new ZaddBatch();
    batch.add('board', 30, 'ann');
    batch.add('league:g0', 5, 'bob');
    batch.add('board', 12, 'cat');
    batch.add('teams', 42, 'red');
    expect(batch.size).toBe(4);
    expect([...batch.byKey]).toEqual([
      ['board', [30, 'ann', 12, 'cat']],
      ['league:g0', [5, 'bob']],
      ['teams', [42, 'red']],
    ]);
  });

  it('is empty until a pair is added', () => {
    const batch = new ZaddBatch();
    expect(batch.size).toBe(0);
    expect(batch.byKey.size).toBe(0);
  });
});
