import { describe, expect, it } from 'vitest';
import { busyShares, ownerOf } from '../src/profile-shares.ts';

describe('the shares of a CPU profile', () => {
  it('names the package, the project folder or the runtime that sampled code lives in', () => {
    expect(ownerOf('file:///repo/node_modules/kafkajs/src/consumer/batch.js', 'x')).toBe('kafkajs');
    expect(ownerOf('file:///repo/node_modules/@platformatic/kafka/dist/index.js', 'x')).toBe(
      '@platformatic/kafka',
    );
    expect(ownerOf('file:///repo/services/rules/src/domain/fold.ts', 'x')).toBe('services/rules');
    expect(ownerOf('file:///repo/libs/kafka/src/codec.ts', 'x')).toBe('libs/kafka');
    expect(ownerOf('node:internal/buffer', 'x')).toBe('node');
    expect(ownerOf('', '(garbage collector)')).toBe('garbage collection');
  });

  it('shares the busy time, idle left out, by the time each sample stood for', () => {
    const frame = (url: string, functionName = 'f') => ({ url, functionName });
    const shares = busyShares({
      nodes: [
        { id: 1, callFrame: frame('', '(idle)') },
        { id: 2, callFrame: frame('file:///r/node_modules/kafkajs/a.js') },
        { id: 3, callFrame: frame('file:///r/services/query/src/b.ts') },
      ],
      samples: [1, 2, 3, 3],
      timeDeltas: [500, 100, 100, 200],
    });
    expect(shares).toEqual([
      ['services/query', 0.75],
      ['kafkajs', 0.25],
    ]);
  });
});
