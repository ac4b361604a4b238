import { metricsRegistry } from '@engage/kit';
import { describe, expect, it } from 'vitest';
import { PartitionProgress } from '../src/partition-progress.ts';

async function samples(name: string, group: string) {
  const metric = await metricsRegistry.getSingleMetric(name)?.get();
  return Object.fromEntries(
    (metric?.values ?? []).filter((v) => v.labels.group === group).map((v) => [v.labels.partition, v.value]),
  );
}

describe('PartitionProgress', () => {
  it('counts a partition with waiting records as stalled until it advances, and 0 once caught up', async () => {
    const progress = new PartitionProgress('progress-test-stall', 't');
    try {
      progress.fetched(0, '10', '4');
      expect(await samples('kafka_consumer_lag_records', 'progress-test-stall')).toEqual({ '0': 6 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const stalled = await samples('kafka_consumer_partition_stalled_seconds', 'progress-test-stall');
      expect(stalled['0']).toBeGreaterThan(0);
      progress.advanced(0, '10', '10');
      expect(await samples('kafka_consumer_lag_records', 'progress-test-stall')).toEqual({ '0': 0 });
      expect(await samples('kafka_consumer_partition_stalled_seconds', 'progress-test-stall')).toEqual({
        '0': 0,
      });
    } finally {
      progress.close();
    }
  });

  it('forgets a partition the group took away, so it does not look stalled on this member', async () => {
    const progress = new PartitionProgress('progress-test-revoked', 't');
    try {
      progress.fetched(0, '10', '4');
      progress.fetched(3, '8', '2');
      progress.assigned([0]);
      expect(
        Object.keys(await samples('kafka_consumer_partition_stalled_seconds', 'progress-test-revoked')),
      ).toEqual(['0']);
      expect(await samples('kafka_consumer_lag_records', 'progress-test-revoked')).toEqual({ '0': 6 });
    } finally {
      progress.close();
    }
    expect(await samples('kafka_consumer_partition_stalled_seconds', 'progress-test-revoked')).toEqual({});
  });
});
