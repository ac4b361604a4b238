import { topicName, topics } from '@engage/contracts';
import { toMessages } from '@engage/kafka';
import type { JournalEntry } from '../store/journal.ts';
import type { OutboxRow } from '../store/outbox-rows.ts';
import { journalRecord } from './journal-record.ts';

/** The outbox row of a journal entry's points.journal.v1 record, as enqueueOutbox would write it. */
export function journalOutboxRow(entry: JournalEntry, topicPrefix: string): OutboxRow {
  const [message] = toMessages(topics.pointsJournal, [journalRecord(entry)]);
  // The outbox keeps headers as JSON text values (the relay sends them as they are stored).
  const headers = Object.fromEntries(
    Object.entries(message!.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  return {
    topic: topicName(topics.pointsJournal, topicPrefix),
    key: String(message!.key),
    value: message!.value as Buffer,
    headers,
  };
}
