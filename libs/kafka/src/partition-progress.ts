import { consumerLag, stalledSources } from './metrics.ts';

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
  private readonly partitions = new Map<number, PartitionState>();
  readonly group: string;
  readonly topic: string;

  constructor(group: string, topic: string) {
    this.group = group;
    this.topic = topic;
    stalledSources.add(this.stalls);
  }

  private readonly stalls = () => {
    const now = Date.now();
    return [...this.partitions].map(([partition, state]) => ({
      labels: { group: this.group, topic: this.topic, partition: String(partition) },
      seconds: state.lag > 0 ? (now - state.waitingSince) / 1000 : 0,
    }));
  };

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
    stalledSources.delete(this.stalls);
  }

  private setLag(partition: number, lag: number): void {
    consumerLag.set({ group: this.group, topic: this.topic, partition: String(partition) }, lag);
  }
}
