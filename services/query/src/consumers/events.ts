import { type AcceptedEvent, acceptedEventClaimId, topicName, topics } from '@engage/contracts';
import {
  type ApplyBatch,
  type ConsumerStopped,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import { type BoardMirrorDeps, mirrorDisplayNames, mirrorScores } from '../boards/mirror.ts';
import { type ScoredBatch, scoreEvents } from '../boards/scoring.ts';
import { ScoringMemory } from '../boards/scoring-memory.ts';
import { tallyEvents } from '../domain/tally.ts';
import { closeMirrorTicket } from '../store/mirror-tickets.ts';
import { addTallies } from '../store/totals.ts';

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

/**
 * Adds one partition batch to the durable totals and board scores inside the consumer's
 * transaction, with a mirror ticket listing the rows Redis is to receive after the commit (opened by
 * the score upsert itself); answers what it scored, for the mirror. `memory`: what the consumer
 * remembers of definitions and periods.
 */
export async function applyAcceptedEvents(
  { client, records }: ApplyBatch<AcceptedEvent>,
  memory?: ScoringMemory,
): Promise<ScoredBatch> {
  const events = records.map((r) => r.value);
  await addTallies(client, tallyEvents(events));
  return scoreEvents(client, events, memory);
}

/**
 * After the commit: mirror the batch's scores into Redis with the values Postgres now holds, then
 * close the ticket. A failure here loses nothing: the ticket stays open and the sweeper mirrors it.
 */
export async function mirrorAppliedEvents(deps: BoardMirrorDeps, scored: ScoredBatch): Promise<void> {
  try {
    await mirrorScores(deps, scored.rows);
    await mirrorDisplayNames(deps, scored.names);
    if (scored.ticketId !== null) await closeMirrorTicket(deps.pool, scored.ticketId);
  } catch (err) {
    deps.log.warn({ err }, 'mirroring to Redis failed; the sweeper will retry');
  }
}

export function startEventsConsumer(
  deps: BoardMirrorDeps & {
    kafka: KafkaClient;
    topicPrefix: string;
    sessionTimeoutMs: number;
    onStopped?: ConsumerStopped | undefined;
    recordsPerTransaction: number;
  },
): Promise<RunningConsumer> {
  const memory = new ScoringMemory();
  return startExactlyOnceConsumer({
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
    afterCommit: ({ result }) => mirrorAppliedEvents(deps, result),
  });
}
