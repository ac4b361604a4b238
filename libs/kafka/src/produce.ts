import { type TopicDefinition, topicName } from '@engage/contracts';
import { injectContext } from '@engage/kit';
import type { IHeaders, Message, Producer, RecordMetadata } from 'kafkajs';
import { encodeRecords, schemaHeaders } from './codec.ts';
import { produceDuration, produceFailures } from './metrics.ts';

/** Avro-encodes records for one topic, keyed by the catalog and carrying the current trace. */
export function toMessages<T>(def: TopicDefinition<T>, records: T[]): Message[] {
  const headers = { ...schemaHeaders(def), ...injectContext() };
  const values = encodeRecords(def, records);
  return records.map((record, i) => ({ key: def.keyOf(record), value: values[i]!, headers }));
}

/**
 * Gives messages about to be sent their header values as Buffers, converted once per distinct
 * headers object (toMessages shares one among a request's records): kafkajs otherwise measures and
 * encodes the text of every header of every record. Not for the outbox, which stores headers as JSON.
 */
export function encodeHeaderValues(messages: Message[]): Message[] {
  const converted = new Map<IHeaders, IHeaders>();
  for (const message of messages) {
    if (!message.headers) continue;
    let headers = converted.get(message.headers);
    if (!headers) {
      headers = {};
      for (const [name, value] of Object.entries(message.headers)) {
        headers[name] = typeof value === 'string' ? Buffer.from(value) : value;
      }
      converted.set(message.headers, headers);
    }
    message.headers = headers;
  }
  return messages;
}

/** Upper bound of a message's bytes inside a record batch (key as UTF-8, varints, headers). */
export function encodedSizeOf(message: Message): number {
  const size = 24 + 3 * String(message.key ?? '').length + (message.value?.length ?? 0);
  return message.headers ? size + headersSizeOf(message.headers) : size;
}

/** Sizes of headers objects met before: a request's records share one (toMessages). */
const headerSizes = new WeakMap<IHeaders, number>();

function headersSizeOf(headers: IHeaders): number {
  let size = headerSizes.get(headers);
  if (size === undefined) {
    size = 0;
    for (const [name, value] of Object.entries(headers)) {
      size += 10 + 3 * name.length + (Buffer.isBuffer(value) ? value.length : 3 * String(value).length);
    }
    headerSizes.set(headers, size);
  }
  return size;
}

/** Sends encoded messages; resolves once the broker has acknowledged all of them (acks from all ISRs). */
export async function produceMessages(
  producer: Producer,
  topic: string,
  messages: Message[],
): Promise<RecordMetadata[]> {
  if (messages.length === 0) return [];
  const stop = produceDuration.startTimer({ topic });
  try {
    return await producer.send({ topic, acks: -1, messages });
  } catch (err) {
    produceFailures.inc({ topic });
    throw err;
  } finally {
    stop();
  }
}

/** Sends records and resolves once the broker has acknowledged all of them (acks from all ISRs). */
export async function produceRecords<T>(
  producer: Producer,
  def: TopicDefinition<T>,
  prefix: string,
  records: T[],
): Promise<RecordMetadata[]> {
  if (records.length === 0) return [];
  return produceMessages(producer, topicName(def, prefix), toMessages(def, records));
}
