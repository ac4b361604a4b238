import { type PointsJournalEntry, topicName, topics } from '@engage/contracts';
import { createKafka, decodeRecord } from '@engage/kafka';
import { createLogger } from '@engage/kit';

/**
 * Reads the journal topic under `topicPrefix` from the beginning until every expected entry has
 * arrived (or the deadline passes), and returns every record read, re-sends included.
 */
export async function readJournalTopic(
  brokers: string[],
  topicPrefix: string,
  expectedEntryIds: ReadonlySet<string>,
  deadlineMs = 30_000,
): Promise<PointsJournalEntry[]> {
  const kafka = createKafka({
    brokers,
    clientId: 'journal-reader',
    log: createLogger('journal-reader', 'error'),
  });
  const consumer = kafka.consumer({ groupId: `reader-${crypto.randomUUID()}`, maxWaitTimeInMs: 100 });
  const records: PointsJournalEntry[] = [];
  const missing = new Set(expectedEntryIds);
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: topicName(topics.pointsJournal, topicPrefix), fromBeginning: true });
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
          const record = decodeRecord(topics.pointsJournal, message.value);
          records.push(record);
          missing.delete(record.entryId);
          if (missing.size === 0) done();
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return records;
}
