import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import {
  type ApplyBatch,
  type ConsumedRecord,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import { tallyEvents } from '../domain/tally.ts';
import { type MirrorDeps, mirrorCounts } from '../mirror/counts-mirror.ts';
import { addTallies, readCounts } from '../store/totals.ts';

/** Adds one partition batch to the durable totals inside the consumer's transaction. */
export async function applyAcceptedEvents({ client, records }: ApplyBatch<AcceptedEvent>): Promise<void> {
  await addTallies(client, tallyEvents(records.map((r) => r.value)));
}

/**
 * After the commit: mirror the batch's counts into Redis with the values Postgres now holds. A failure
 * here loses nothing: the rows stay pending and the sweeper mirrors them.
 */
export async function mirrorAppliedEvents(
  deps: MirrorDeps,
  records: ConsumedRecord<AcceptedEvent>[],
): Promise<void> {
  try {
    const keys = tallyEvents(records.map((r) => r.value));
    await mirrorCounts(deps, await readCounts(deps.pool, keys));
  } catch (err) {
    deps.log.warn({ err }, 'mirroring counts to Redis failed; the sweeper will retry');
  }
}

export function startEventsConsumer(
  deps: MirrorDeps & { kafka: KafkaClient; topicPrefix: string; sessionTimeoutMs: number },
): Promise<RunningConsumer> {
  return startExactlyOnceConsumer({
    kafka: deps.kafka,
    pool: deps.pool,
    log: deps.log,
    groupId: consumerGroupId('query', deps.topicPrefix),
    topic: topicName(topics.eventsAccepted, deps.topicPrefix),
    definition: topics.eventsAccepted,
    sessionTimeoutMs: deps.sessionTimeoutMs,
    apply: applyAcceptedEvents,
    afterCommit: ({ records }) => mirrorAppliedEvents(deps, records),
  });
}
