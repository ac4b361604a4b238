import { describe, expect, it } from 'vitest';
import { ZaddBatch } from '../src/store/redis/zadd-batch.ts';

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

  it('sends each set in pieces of at most the given number of members, in the order added', () => {
    const batch = new ZaddBatch();
    for (const [score, member] of [
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ] as const)
      batch.add('board', score, member);
    batch.add('teams', 9, 'red');
    expect([...batch.commands(2)]).toEqual([
      ['board', [1, 'a', 2, 'b']],
      ['board', [3, 'c']],
      ['teams', [9, 'red']],
    ]);
  });

  it('is empty until a pair is added', () => {
    const batch = new ZaddBatch();
    expect(batch.size).toBe(0);
    expect(batch.byKey.size).toBe(0);
  });
});
