import { type AcceptedEvent, playerKey, topicName, topics } from '@engage/contracts';
import {
  type ApplyBatch,
  type ConsumedRecord,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { foldActivity, type PlayerActivity } from '../domain/activity.ts';
import { lockActivities, saveActivities } from '../store/activity.ts';

/**
 * Applies one partition batch of accepted events inside the consumer's transaction: the activity of
 * every player in the batch is loaded in one query, folded in memory and written in one statement.
 */
export async function applyAcceptedEvents({ client, records }: ApplyBatch<AcceptedEvent>): Promise<void> {
  const byPlayer = groupByPlayer(records);
  const players = [...byPlayer.values()].map((events) => events[0]!.value);
  const stored = new Map(
    (await lockActivities(client, players)).map((activity) => [playerKey(activity), activity]),
  );
  const updated: PlayerActivity[] = [];
  for (const [key, events] of byPlayer) {
    const first = events[0]!.value;
    const next = foldActivity(
      first,
      stored.get(key),
      events.map((r) => ({ eventId: r.value.eventId, offset: r.offset, occurredAt: r.value.occurredAt })),
    );
    if (next) updated.push(next);
  }
  await saveActivities(client, updated);
}

/** Records grouped by player, each group in offset order. */
function groupByPlayer(records: ConsumedRecord<AcceptedEvent>[]) {
  const groups = new Map<string, ConsumedRecord<AcceptedEvent>[]>();
  for (const record of records) {
    const key = playerKey(record.value);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return groups;
}

export function startEventsConsumer(options: {
  kafka: KafkaClient;
  pool: Pool;
  log: Logger;
  topicPrefix: string;
  sessionTimeoutMs: number;
}): Promise<RunningConsumer> {
  return startExactlyOnceConsumer({
    kafka: options.kafka,
    pool: options.pool,
    log: options.log,
    groupId: consumerGroupId('rules', options.topicPrefix),
    topic: topicName(topics.eventsAccepted, options.topicPrefix),
    definition: topics.eventsAccepted,
    sessionTimeoutMs: options.sessionTimeoutMs,
    apply: applyAcceptedEvents,
  });
}
