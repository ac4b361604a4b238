import { topicName, topics } from '@engage/contracts';
import { toMessages } from '@engage/kafka';
import type { JournalEntry } from '../store/journal.ts';
import { journalRecord } from './journal-record.ts';

/** The outbox row of a journal entry's points.journal.v1 record, as enqueueOutbox would write it. */
export function journalOutboxRow(entry: JournalEntry, topicPrefix: string) {
  const [message] = toMessages(topics.pointsJournal, [journalRecord(entry)]);
  return {
    topic: topicName(topics.pointsJournal, topicPrefix),
    key: String(message!.key),
    value: message!.value as Buffer,
    headers: (message!.headers ?? {}) as Record<string, unknown>,
  };
}
