import { acceptedEventClaimId, topicName, topics } from '@engage/contracts';
import {
  type ConsumerStopped,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { type ApplyEventsDeps, applyAcceptedEvents, keepApplied } from '../application/apply-events.ts';

/**
 * A backlog is applied in chunks of this many events per partition (every partition of a fetch
 * round in one transaction): the more events of one player a chunk holds, the fewer times their row
 * is written. When the consumer keeps up, fetches are far smaller than this.
 */
const MAX_EVENTS_PER_PARTITION = 8_000;
/** Fetches large enough to fill such a chunk (accepted events are a few hundred bytes). */
const MAX_FETCH_BYTES_PER_PARTITION = 4 * 1024 * 1024;
/**
 * Transactions a kafkajs fetch round is applied in, each over half of the round's partitions: one
 * half folds in memory while the other waits on Postgres (docs/consumers.md).
 */
const FETCH_ROUND_TRANSACTIONS = 2;

/**
 * The accepted events, applied to players' progress and streaks in transactions that also move the
 * partitions' stored offsets (`application/apply-events.ts`).
 */
export function startEventsConsumer(
  options: ApplyEventsDeps & {
    kafka: KafkaClient;
    pool: Pool;
    log: Logger;
    sessionTimeoutMs: number;
    onStopped?: ConsumerStopped | undefined;
    /** Called after a commit that wrote outbox records (wakes the relay). */
    onOutbox: () => void;
  },
): Promise<RunningConsumer> {
  return startExactlyOnceConsumer({
    kafka: options.kafka,
    pool: options.pool,
    log: options.log,
    groupId: consumerGroupId('rules', options.topicPrefix),
    topic: topicName(topics.eventsAccepted, options.topicPrefix),
    definition: topics.eventsAccepted,
    sessionTimeoutMs: options.sessionTimeoutMs,
    onStopped: options.onStopped,
    maxRecordsPerTransaction: MAX_EVENTS_PER_PARTITION,
    maxBytesPerPartition: MAX_FETCH_BYTES_PER_PARTITION,
    fetchRoundTransactions: FETCH_ROUND_TRANSACTIONS,
    recordId: acceptedEventClaimId,
    apply: ({ client, records }) => applyAcceptedEvents(options, client, records),
    // Committed: the players are held as written, and the outbox records it wrote are published.
    afterCommit: async ({ result }) => {
      keepApplied(options, result);
      if (result.outboxRecords > 0) options.onOutbox();
    },
    onAssignment: (partitions) => options.progress.retainPartitions(partitions),
  });
}
