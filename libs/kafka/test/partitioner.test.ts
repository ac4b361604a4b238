import fc from 'fast-check';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { rememberingPartitioner } from '../src/partitioner.ts';

const metadata = (count: number): PartitionMetadata[] =>
  Array.from({ length: count }, (_, partitionId) => ({
    partitionId,
    leader: 1,
    replicas: [1],
    isr: [1],
    partitionErrorCode: 0,
  }));

describe('rememberingPartitioner', () => {
  it("chooses the default partitioner's partition for every key, asked once or many times", () => {
    const remembering = rememberingPartitioner();
    const reference = Partitioners.DefaultPartitioner();
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.constantFrom(1, 3, 12, 50),
        fc.constantFrom('t', 'u'),
        (key, count, topic) => {
          const args = { topic, partitionMetadata: metadata(count), message: { key, value: null } };
          const expected = reference(args);
          expect(remembering(args)).toBe(expected);
          expect(remembering(args)).toBe(expected);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('keeps an explicit partition', () => {
    const remembering = rememberingPartitioner();
    const message = { key: 'k', value: null, partition: 2 };
    expect(remembering({ topic: 't', partitionMetadata: metadata(12), message })).toBe(2);
  });
});
