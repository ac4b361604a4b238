import { topicName, topics } from '@engage/contracts';
import { toMessages } from '@engage/kafka';
import { journalRecord } from './journal-record.ts';
import type { JournalEntryRow } from './write-decisions.ts';

/** A record encoded for the outbox, published by the relay after commit. */
export interface OutboxRow {
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

/** The outbox rows of journal entries' points.journal.v1 records, encoded together, in order. */
export function journalOutboxRows(entries: JournalEntryRow[], topicPrefix: string): OutboxRow[] {
  if (entries.length === 0) return [];
  const messages = toMessages(topics.pointsJournal, entries.map(journalRecord));
  // The outbox keeps headers as JSON text values (the relay sends them as they are stored); the
  // records of one call share one headers object.
  const headers = Object.fromEntries(
    Object.entries(messages[0]!.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  const topic = topicName(topics.pointsJournal, topicPrefix);
  return messages.map((message) => ({
    topic,
    key: String(message.key),
    value: message.value as Buffer,
    headers,
  }));
}
