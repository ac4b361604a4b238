import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import {
  type ApplyBatch,
  type ConsumedRecord,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import { type BoardMirrorDeps, mirrorDisplayNames, mirrorScores } from '../boards/mirror.ts';
import { type ScoredBatch, scoreEvents } from '../boards/scoring.ts';
import { tallyEvents } from '../domain/tally.ts';
import { readScores } from '../store/scores.ts';
import { addTallies } from '../store/totals.ts';

/** What apply scored, per applied record array, for the mirror after the commit. */
const scoredBatches = new WeakMap<object, ScoredBatch>();

/** Adds one partition batch to the durable totals and board scores inside the consumer's transaction. */
export async function applyAcceptedEvents({ client, records }: ApplyBatch<AcceptedEvent>): Promise<void> {
  const events = records.map((r) => r.value);
  await addTallies(client, tallyEvents(events));
  scoredBatches.set(records, await scoreEvents(client, events));
}

/**
 * After the commit: mirror the batch's scores into Redis with the values Postgres now
 * holds. A failure here loses nothing: the rows stay pending and the sweeper mirrors them.
 */
export async function mirrorAppliedEvents(
  deps: BoardMirrorDeps,
  records: ConsumedRecord<AcceptedEvent>[],
): Promise<void> {
  try {
    const scored = scoredBatches.get(records);
    if (scored) {
      await mirrorScores(deps, await readScores(deps.pool, scored.deltas));
      await mirrorDisplayNames(deps, scored.names);
    }
  } catch (err) {
    deps.log.warn({ err }, 'mirroring to Redis failed; the sweeper will retry');
  }
}

export function startEventsConsumer(
  deps: BoardMirrorDeps & {
    kafka: KafkaClient;
    topicPrefix: string;
    sessionTimeoutMs: number;
    recordsPerTransaction: number;
  },
): Promise<RunningConsumer> {
  return startExactlyOnceConsumer({
    kafka: deps.kafka,
    pool: deps.pool,
    log: deps.log,
    groupId: consumerGroupId('query', deps.topicPrefix),
    topic: topicName(topics.eventsAccepted, deps.topicPrefix),
    definition: topics.eventsAccepted,
    sessionTimeoutMs: deps.sessionTimeoutMs,
    // The gateway may re-send an event with its eventId (after a crash or a failed send).
    recordId: (event) => event.eventId,
    maxRecordsPerTransaction: deps.recordsPerTransaction,
    apply: applyAcceptedEvents,
    afterCommit: ({ records }) => mirrorAppliedEvents(deps, records),
  });
}
