import { randomUUID } from 'node:crypto';
import { type TopicDefinition, topicName } from '@engage/contracts';
import { consumerGroupId, decodeRecord, type KafkaClient, loadWriterSchemas } from '@engage/kafka';
import { type Logger, retry } from '@engage/kit';
import type { Admin, Consumer } from 'kafkajs';

/** What a reader does with each record of one of its topics (null: a tombstone). */
export interface TopicHandler<T> {
  topic: TopicDefinition<T>;
  apply(key: string, record: T | null): void;
}

export interface TopicReader {
  /**
   * Resolves once every record on the topics when it was called has been applied. Concurrent
   * callers share one round trip to the broker.
   */
  catchUp(): Promise<void>;
  /** Resolves at the next applied batch of records. */
  nextChange(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Reads whole topics, from their beginning and then as records arrive, into this process's memory:
 * every replica reads every partition (a consumer group of its own that never commits, so a
 * restart reads from the beginning again). It resolves once the topics have been read up to the
 * ends they had when it started.
 */
export async function startTopicReader(options: {
  kafka: KafkaClient;
  topicPrefix: string;
  /** Each replica's group is `<group>-<random id>` (with the topic prefix, as consumerGroupId). */
  readerGroup: string;
  // biome-ignore lint/suspicious/noExplicitAny: handlers of differently typed topics, each consistent
  handlers: TopicHandler<any>[];
  log: Logger;
  /** Called when the consumer stops for good: the views would go stale. */
  onStopped: (err: unknown) => void;
}): Promise<TopicReader> {
  const { kafka, topicPrefix, log } = options;
  const handlers = new Map(options.handlers.map((h) => [topicName(h.topic, topicPrefix), h]));
  const positions = new Map<string, number>();
  let changeWaiters: (() => void)[] = [];
  let stopping = false;

  const admin: Admin = kafka.admin();
  await admin.connect();
  const consumer: Consumer = kafka.consumer({
    groupId: `${consumerGroupId(options.readerGroup, topicPrefix)}-${randomUUID()}`,
    maxWaitTimeInMs: 500,
    sessionTimeout: 30_000,
  });
  consumer.on(consumer.events.CRASH, (event) => {
    if (!event.payload.restart && !stopping) options.onStopped(event.payload.error);
  });
  await consumer.connect();
  // Topics created a moment ago (a first start after the migration) may not have leaders yet.
  await retry(() => consumer.subscribe({ topics: [...handlers.keys()], fromBeginning: true }), {
    attempts: 8,
    delayMs: (failed) => 200 * failed,
  });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      const handler = handlers.get(batch.topic);
      if (!handler) return;
      // Records framed for a schema registry need their writer's schema (a failure fetches again).
      await loadWriterSchemas(handler.topic, [batch.messages]);
      for (const message of batch.messages) {
        const key = message.key?.toString() ?? '';
        try {
          const record = message.value ? decodeRecord(handler.topic, message.value, message.headers) : null;
          handler.apply(key, record);
        } catch (err) {
          // A record this version cannot read is skipped rather than stopping every view.
          log.error({ err, topic: batch.topic, offset: message.offset }, 'could not apply a state record');
        }
      }
      const position = Number(batch.lastOffset()) + 1;
      const id = `${batch.topic}:${batch.partition}`;
      if (position > (positions.get(id) ?? 0)) positions.set(id, position);
      const waiters = changeWaiters;
      changeWaiters = [];
      for (const wake of waiters) wake();
    },
  });

  /** Every partition read up to the end it had when this was called. */
  const barrier = async () => {
    // As at subscribe: a topic created a moment ago may not have its leaders known yet.
    const ends = await retry(
      () =>
        Promise.all(
          [...handlers.keys()].map(async (topic) =>
            (await admin.fetchTopicOffsets(topic)).map((p) => ({
              id: `${topic}:${p.partition}`,
              low: Number(p.low),
              high: Number(p.high),
            })),
          ),
        ),
      { attempts: 8, delayMs: (failed) => 100 * failed },
    );
    const behind = () => ends.flat().filter((p) => p.high > p.low && (positions.get(p.id) ?? 0) < p.high);
    while (behind().length > 0) {
      if (stopping) throw new Error('the state topics reader stopped');
      await nextChange();
    }
  };

  const nextChange = () => new Promise<void>((resolve) => changeWaiters.push(resolve));

  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const catchUp = (): Promise<void> => {
    if (!running) {
      running = barrier().finally(() => {
        running = undefined;
      });
      return running;
    }
    // A barrier already under way may have read the ends before this caller's records: the next.
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return catchUp();
      });
    return queued;
  };

  await catchUp();
  return {
    catchUp,
    nextChange,
    stop: async () => {
      stopping = true;
      for (const wake of changeWaiters) wake();
      await consumer.disconnect();
      await admin.disconnect();
    },
  };
}
