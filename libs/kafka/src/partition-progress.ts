import { metricsRegistry } from '@engage/kit';
import { Gauge } from 'prom-client';
import { consumerLag } from './metrics.ts';

/** Every consumer's progress in this process, read when the stalled gauge is scraped. */
const tracked = new Set<PartitionProgress>();

new Gauge({
  name: 'kafka_consumer_partition_stalled_seconds',
  help: 'Seconds since the partition last advanced while records wait on it (0 when caught up).',
  labelNames: ['group', 'topic', 'partition'],
  registers: [metricsRegistry],
  collect() {
    // Partitions this process no longer consumes disappear from the gauge.
    this.reset();
    const now = Date.now();
    for (const progress of tracked) {
      for (const [partition, state] of progress.partitions) {
        this.set(
          { group: progress.group, topic: progress.topic, partition: String(partition) },
          state.lag > 0 ? (now - state.waitingSince) / 1000 : 0,
        );
      }
    }
  },
});

interface PartitionState {
  lag: number;
  /** When the partition last advanced, or when records started waiting on a caught-up one. */
  waitingSince: number;
}

/**
 * Where a consumer's partitions stand: the lag (records between the next offset to apply and the
 * high watermark) is set when a batch is fetched, before it is applied, so it stays true while
 * applying fails; a partition with lag that does not advance shows in the stalled gauge.
 */
export class PartitionProgress {
  readonly partitions = new Map<number, PartitionState>();
  readonly group: string;
  readonly topic: string;

  constructor(group: string, topic: string) {
    this.group = group;
    this.topic = topic;
    tracked.add(this);
  }

  /** A batch starting at `nextOffset` was fetched from a partition whose high watermark is given. */
  fetched(partition: number, highWatermark: string, nextOffset: string): void {
    const state = this.partitions.get(partition);
    const lag = Math.max(0, Number(highWatermark) - Number(nextOffset));
    if (!state || state.lag === 0) this.partitions.set(partition, { lag, waitingSince: Date.now() });
    else state.lag = lag;
    this.setLag(partition, lag);
  }

  /** Records below `nextOffset` are applied (or set aside). */
  advanced(partition: number, highWatermark: string, nextOffset: string): void {
    const lag = Math.max(0, Number(highWatermark) - Number(nextOffset));
    this.partitions.set(partition, { lag, waitingSince: Date.now() });
    this.setLag(partition, lag);
  }

  /**
   * The partitions the group now assigns this member: the others are forgotten (another member
   * reports them), so a partition taken away while records waited on it does not look stalled here.
   */
  assigned(partitions: number[]): void {
    const kept = new Set(partitions);
    for (const partition of [...this.partitions.keys()]) {
      if (kept.has(partition)) continue;
      this.partitions.delete(partition);
      consumerLag.remove({ group: this.group, topic: this.topic, partition: String(partition) });
    }
  }

  close(): void {
    this.assigned([]);
    tracked.delete(this);
  }

  private setLag(partition: number, lag: number): void {
    consumerLag.set({ group: this.group, topic: this.topic, partition: String(partition) }, lag);
  }
}
