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
import {
  changesOfJournal,
  changesOfProgress,
  changesOfPurchase,
  changesOfSettlement,
  type WebhookChange,
} from './domain/changes.ts';
import { enqueueDeliveries } from './enqueue-deliveries.ts';

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
  { group: 'gateway-webhooks-purchases', definition: topics.shopPurchases, changesOf: changesOfPurchase },
  {
    group: 'gateway-webhooks-settled',
    definition: topics.leaderboardsSettled,
    changesOf: changesOfSettlement,
  },
] as const satisfies readonly Source<never>[];

export interface WebhookSources {
  stop: () => Promise<void>;
}

/** The longest wait between attempts to start a source consumer. */
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * One exactly-once consumer per source topic: each committed record becomes its deliveries in the
 * transaction that moves the topic's offsets, so a delivery is queued once and only for a change
 * that its service committed (it reached the topic through that service's outbox). A consumer that
 * cannot start (its topic is missing, the broker is away) is tried again with a growing pause
 * rather than stopping the gateway: its API does not depend on webhooks, and the records wait in
 * the topic.
 */
export function startWebhookSources(deps: {
  kafka: KafkaClient;
  pool: Pool;
  log: Logger;
  topicPrefix: string;
  sessionTimeoutMs: number;
  onStopped?: ConsumerStopped | undefined;
  /** After a commit that queued deliveries. */
  onQueued: () => void;
}): WebhookSources {
  let stopping = false;
  const running: RunningConsumer[] = [];
  const pauses = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        pauses.delete(done);
        resolve();
      }
      pauses.add(done);
    });

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

  const keepStarting = async <T>(source: Source<T>) => {
    for (let failures = 0; !stopping; failures++) {
      try {
        const consumer = await start(source);
        if (stopping) await consumer.stop();
        else running.push(consumer);
        return;
      } catch (err) {
        const delayMs = Math.min(MAX_RESTART_DELAY_MS, 1_000 * 2 ** failures);
        deps.log.warn(
          { err, group: source.group, delayMs },
          'a webhook source consumer could not start; trying again',
        );
        await pause(delayMs);
      }
    }
  };
  const starting = Promise.all(SOURCES.map((source) => keepStarting(source as Source<unknown>)));

  return {
    stop: async () => {
      stopping = true;
      for (const wake of [...pauses]) wake();
      await starting;
      await Promise.all(running.map((consumer) => consumer.stop()));
    },
  };
}
