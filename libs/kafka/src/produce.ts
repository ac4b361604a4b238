import { type TopicDefinition, topicName } from '@engage/contracts';
import { injectContext } from '@engage/kit';
import type { Message, Producer, RecordMetadata } from 'kafkajs';
import { encodeRecord, schemaHeaders } from './codec.ts';
import { produceDuration } from './metrics.ts';

/** Avro-encodes records for one topic, keyed by the catalog and carrying the current trace. */
export function toMessages<T>(def: TopicDefinition<T>, records: T[]): Message[] {
  const headers = { ...schemaHeaders(def), ...injectContext() };
  return records.map((record) => ({ key: def.keyOf(record), value: encodeRecord(def, record), headers }));
}

/** Sends records and resolves once the broker has acknowledged all of them (acks from all ISRs). */
export async function produceRecords<T>(
  producer: Producer,
  def: TopicDefinition<T>,
  prefix: string,
  records: T[],
): Promise<RecordMetadata[]> {
  if (records.length === 0) return [];
  const topic = topicName(def, prefix);
  const stop = produceDuration.startTimer({ topic });
  try {
    return await producer.send({ topic, acks: -1, messages: toMessages(def, records) });
  } finally {
    stop();
  }
}
