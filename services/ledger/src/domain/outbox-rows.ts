import { type TopicDefinition, topicName, topics } from '@engage/contracts';
import { toMessages } from '@engage/kafka';
import { journalRecord } from './journal-record.ts';
import { purchaseRecord } from './purchase-record.ts';
import type { BatchEffects } from './write-decisions.ts';

/** A record encoded for the outbox, published by the relay after commit. */
export interface OutboxRow {
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

/** The outbox rows of one topic's records, encoded together, in order. */
export function outboxRows<T>(def: TopicDefinition<T>, records: T[], topicPrefix: string): OutboxRow[] {
  if (records.length === 0) return [];
  const messages = toMessages(def, records);
  // The outbox keeps headers as JSON text values (the relay sends them as they are stored); the
  // records of one call share one headers object.
  const headers = Object.fromEntries(
    Object.entries(messages[0]!.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  const topic = topicName(def, topicPrefix);
  return messages.map((message) => ({
    topic,
    key: String(message.key),
    value: message.value as Buffer,
    headers,
  }));
}

/** The records a batch's effects publish: its journal entries, then its purchases (free ones too). */
export function effectOutboxRows(effects: BatchEffects, topicPrefix: string): OutboxRow[] {
  return [
    ...outboxRows(topics.pointsJournal, effects.journal.map(journalRecord), topicPrefix),
    ...outboxRows(topics.shopPurchases, effects.purchases.map(purchaseRecord), topicPrefix),
  ];
}
