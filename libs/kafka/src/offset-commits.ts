import type { Consumer } from 'kafkajs';
import type { Logger } from 'pino';

export interface OffsetCommits {
  /** Notes the partition's next offset to read; it reaches Kafka with the next commit. */
  note: (partition: number, nextOffset: string) => void;
  /**
   * Commits what was noted now and takes no more notes (before leaving the group: a batch finishing
   * meanwhile is not committed to Kafka, which only means it is read again and skipped).
   */
  close: () => Promise<void>;
}

/**
 * Commits a consumer's offsets to Kafka at most once per `intervalMs`, every partition in one
 * request, off the path that applies records. Kafka's committed offset is only where a restarted
 * consumer starts reading (the offsets stored with the effects decide what is applied), so a
 * commit that lags or is lost only means records read again and skipped.
 */
export function offsetCommits(options: {
  consumer: Consumer;
  topic: string;
  intervalMs: number;
  log: Logger;
}): OffsetCommits {
  const { consumer, topic, log } = options;
  const noted = new Map<number, string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const commit = async () => {
    clearTimeout(timer);
    timer = undefined;
    if (noted.size === 0) return;
    const partitions = [...noted].map(([partition, offset]) => ({ topic, partition, offset }));
    noted.clear();
    await consumer
      .commitOffsets(partitions)
      .catch((err) =>
        log.warn({ err, topic }, 'committing offsets to Kafka failed; the next commit moves them'),
      );
  };
  return {
    note: (partition, nextOffset) => {
      if (closed) return;
      noted.set(partition, nextOffset);
      if (timer) return;
      timer = setTimeout(() => void commit(), options.intervalMs);
      timer.unref();
    },
    close: () => {
      closed = true;
      return commit();
    },
  };
}
