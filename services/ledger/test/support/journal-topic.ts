import { type PointsJournalEntry, type TopicDefinition, topicName, topics } from '@engage/contracts';
import { createKafka, decodeRecord } from '@engage/kafka';
import { createLogger } from '@engage/kit';

/**
 * Reads the journal topic under `topicPrefix` from the beginning until every expected entry has
 * arrived (or the deadline passes), and returns every record read, re-sends included.
 */
export function readJournalTopic(
  brokers: string[],
  topicPrefix: string,
  expectedEntryIds: ReadonlySet<string>,
  deadlineMs = 30_000,
): Promise<PointsJournalEntry[]> {
  return readTopicRecords(
    brokers,
    topics.pointsJournal,
    topicPrefix,
    (r) => r.entryId,
    expectedEntryIds,
    deadlineMs,
  );
}

/**
 * Reads a topic under `topicPrefix` from the beginning until a record of every expected id has
 * arrived (or the deadline passes), and returns every record read, re-sends included.
 */
export async function readTopicRecords<T>(
  brokers: string[],
  def: TopicDefinition<T>,
  topicPrefix: string,
  idOf: (record: T) => string,
  expectedIds: ReadonlySet<string>,
  deadlineMs = 30_000,
): Promise<T[]> {
  const kafka = createKafka({
    brokers,
    clientId: 'topic-reader',
    log: createLogger('topic-reader', 'error'),
  });
  const consumer = kafka.consumer({ groupId: `reader-${crypto.randomUUID()}`, maxWaitTimeInMs: 100 });
  const records: T[] = [];
  const missing = new Set(expectedIds);
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: topicName(def, topicPrefix), fromBeginning: true });
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, deadlineMs);
      if (missing.size === 0) return done();
      void consumer.run({
        eachMessage: async ({ message }) => {
          if (!message.value) return;
          const record = decodeRecord(def, message.value);
          records.push(record);
          missing.delete(idOf(record));
          if (missing.size === 0) done();
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return records;
}
