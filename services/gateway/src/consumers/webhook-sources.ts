import { type TopicDefinition, topicName, topics } from '@engage/contracts';
import {
  type ConsumerStopped,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { enqueueDeliveries } from '../application/webhooks/enqueue-deliveries.ts';
import {
  changesOfJournal,
  changesOfProgress,
  changesOfSettlement,
  type WebhookChange,
} from '../domain/webhook-changes.ts';

interface Source<T> {
  /** The consumer group's name (before the deployment's prefix): one group per topic. */
  group: string;
  definition: TopicDefinition<T>;
  changesOf: (value: T) => WebhookChange[];
}

/** The topics webhooks report from, and what each record becomes. */
const SOURCES = [
  { group: 'gateway-webhooks-progress', definition: topics.rulesProgress, changesOf: changesOfProgress },
  { group: 'gateway-webhooks-journal', definition: topics.pointsJournal, changesOf: changesOfJournal },
  {
    group: 'gateway-webhooks-settled',
    definition: topics.leaderboardsSettled,
    changesOf: changesOfSettlement,
  },
] as const satisfies readonly Source<never>[];

/**
 * One exactly-once consumer per source topic: each committed record becomes its deliveries in the
 * transaction that moves the topic's offsets, so a delivery is queued once and only for a change
 * that its service committed (it reached the topic through that service's outbox).
 */
export async function startWebhookSources(deps: {
  kafka: KafkaClient;
  pool: Pool;
  log: Logger;
  topicPrefix: string;
  sessionTimeoutMs: number;
  onStopped?: ConsumerStopped | undefined;
  /** After a commit that queued deliveries. */
  onQueued: () => void;
}): Promise<RunningConsumer[]> {
  const start = <T>(source: Source<T>) =>
    startExactlyOnceConsumer<T, number>({
      kafka: deps.kafka,
      pool: deps.pool,
      log: deps.log,
      groupId: consumerGroupId(source.group, deps.topicPrefix),
      topic: topicName(source.definition, deps.topicPrefix),
      definition: source.definition,
      sessionTimeoutMs: deps.sessionTimeoutMs,
      onStopped: deps.onStopped,
      apply: ({ client, records }) => enqueueDeliveries(client, records, source.changesOf),
      afterCommit: async ({ result }) => {
        if (result > 0) deps.onQueued();
      },
    });
  return Promise.all(SOURCES.map((source) => start(source as Source<unknown>)));
}
