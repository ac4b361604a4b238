import { acceptedEventClaimId, topicName, topics } from '@engage/contracts';
import {
  type ConsumerStopped,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import { applyAcceptedEvents, mirrorAppliedEvents } from '../application/scoring/apply-events.ts';
import type { BoardMirrorDeps } from '../application/scoring/mirror.ts';
import { ScoringMemory } from '../application/scoring/scoring-memory.ts';
import { TicketCloser } from '../application/scoring/ticket-closer.ts';

/**
 * Each kafkajs fetch round is applied in two transactions over half its partitions each: while one
 * waits on Postgres the other decodes and scores, and a round costs two commits instead of one per
 * partition. Scoring takes its shared locks (periods, league fills) in key order, so the
 * two cannot deadlock.
 */
const TRANSACTIONS_PER_FETCH_ROUND = 2;
/**
 * A fetch waits for this much (or 100 ms): a steady stream of score events is applied about ten
 * times a second in larger rounds instead of in a round per producer batch.
 */
const FETCH_MIN_BYTES = 256 * 1024;
/** 2 MiB fetched per partition: about EVENTS_RECORDS_PER_TRANSACTION events, one transaction's worth. */
const FETCH_BYTES_PER_PARTITION = 2 * 1024 * 1024;

export async function startEventsConsumer(
  deps: BoardMirrorDeps & {
    kafka: KafkaClient;
    topicPrefix: string;
    sessionTimeoutMs: number;
    onStopped?: ConsumerStopped | undefined;
    recordsPerTransaction: number;
  },
): Promise<RunningConsumer> {
  const memory = new ScoringMemory();
  const closer = new TicketCloser(deps.pool, deps.log);
  const running = await startExactlyOnceConsumer({
    kafka: deps.kafka,
    pool: deps.pool,
    log: deps.log,
    groupId: consumerGroupId('query', deps.topicPrefix),
    topic: topicName(topics.eventsAccepted, deps.topicPrefix),
    definition: topics.eventsAccepted,
    sessionTimeoutMs: deps.sessionTimeoutMs,
    onStopped: deps.onStopped,
    recordId: acceptedEventClaimId,
    maxRecordsPerTransaction: deps.recordsPerTransaction,
    fetchRoundTransactions: TRANSACTIONS_PER_FETCH_ROUND,
    maxBytesPerPartition: FETCH_BYTES_PER_PARTITION,
    minBytesPerFetch: FETCH_MIN_BYTES,
    apply: (batch) => applyAcceptedEvents(batch, memory),
    afterCommit: ({ result }) => mirrorAppliedEvents(deps, result, closer),
  });
  return {
    ...running,
    stop: async () => {
      await running.stop();
      await closer.idle();
    },
  };
}
