import { describe, expect, it } from 'vitest';
import { RecentChanges } from '../src/application/cache/recent-changes.ts';

describe('recent changes', () => {
  it('says whether a key changed after a mark', () => {
    const changes = new RecentChanges<string>({ perGeneration: 10 });
    changes.add('a');
    const mark = changes.mark();
    expect(changes.changedSince(mark, 'a')).toBe(false);
    changes.add('b');
    expect([changes.changedSince(mark, 'a'), changes.changedSince(mark, 'b')]).toEqual([false, true]);
    changes.add('a');
    expect(changes.changedSince(mark, 'a')).toBe(true);
    expect(changes.changedSince(changes.mark(), 'a')).toBe(false);
  });

  it('counts a mark older than what it holds as changed, and a recent one by its keys', () => {
    const changes = new RecentChanges<string>({ perGeneration: 2 });
    const old = changes.mark();
    changes.add('a');
    changes.add('b');
    const recent = changes.mark();
    changes.add('c'); // a new generation: a and b are the older one
    expect([changes.changedSince(old, 'x'), changes.changedSince(old, 'a')]).toEqual([false, true]);
    changes.add('d');
    changes.add('e'); // another: a and b are forgotten, so marks before them count as changed
    expect(changes.changedSince(old, 'x')).toBe(true);
    expect([changes.changedSince(recent, 'x'), changes.changedSince(recent, 'd')]).toEqual([false, true]);
  });

  it('after everything changed, every earlier mark counts as changed', () => {
    const changes = new RecentChanges<string>({ perGeneration: 10 });
    const mark = changes.mark();
    changes.addEverything();
    expect(changes.changedSince(mark, 'x')).toBe(true);
    expect(changes.changedSince(changes.mark(), 'x')).toBe(false);
  });
});
