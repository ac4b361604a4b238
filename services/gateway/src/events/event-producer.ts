import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { encodedSizeOf, encodeHeaderValues, produceMessages, toMessages } from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Message, Producer } from 'kafkajs';

/**
 * The producer of accepted events. Each request's records are Avro-encoded at once, in the
 * request's own trace context; batches of concurrent requests that arrive while PARALLEL_SENDS
 * sends are in flight are coalesced into the next send (up to MAX_BYTES_PER_SEND), so a burst of
 * requests costs a few large produce requests instead of one each. Each request still resolves
 * only once its own records are acknowledged, and fails if their send fails.
 *
 * The producer is replaced after any failed send. An idempotent kafkajs producer
 * whose send failed may hold sequence numbers the broker already used (a send can land and still
 * fail on the way back); a later batch reusing them is taken by the broker as a duplicate and
 * silently dropped while kafkajs reports success. A fresh producer gets a new producer id, so
 * nothing acknowledged can be lost that way.
 */
export interface EventProducer {
  send(records: AcceptedEvent[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Upper bound of one send's encoded size. One partition's part of a send travels as one record
 * batch, which the broker refuses above `message.max.bytes` (1 MB by default); keeping the whole
 * send under it keeps every partition's batch under it. A request larger than this (up to 1,000
 * maximal items, about 6 MB) goes out in several sends, one after the other, so one player's records
 * stay in order; the answer waits for all of them.
 */
const MAX_BYTES_PER_SEND = 900_000;
/**
 * Sends under way at once; each takes whatever is queued when it starts. The idempotent kafkajs
 * producer still puts one request at a time on the wire per broker (a lock held from encoding the
 * request to its answer), in the order the sends reach it; the others wait there ready.
 */
const PARALLEL_SENDS = 4;

function* chunksOf(messages: Message[]): Generator<Message[]> {
  let chunk: Message[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = encodedSizeOf(message);
    if (chunk.length > 0 && bytes + size > MAX_BYTES_PER_SEND) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(message);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

interface Pending {
  messages: Message[];
  bytes: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function createEventProducer(options: {
  initial: Producer;
  connect: () => Promise<Producer>;
  topicPrefix: string;
  log: Logger;
}): EventProducer {
  const topic = topicName(topics.eventsAccepted, options.topicPrefix);
  let producer: Producer | undefined = options.initial;
  // A new producer is connected on the next send after a failure; if that fails too, the sends
  // waiting for it fail at once (retryable) rather than hang through an outage.
  let connecting: Promise<Producer> | undefined;
  const obtain = async (): Promise<Producer> => {
    if (producer) return producer;
    // Senders in parallel share one connection attempt.
    connecting ??= options.connect().finally(() => {
      connecting = undefined;
    });
    producer = await connecting;
    return producer;
  };
  const discard = (failed: Producer) => {
    if (producer !== failed) return;
    producer = undefined;
    failed.disconnect().catch((err) => options.log.warn({ err }, 'could not disconnect a failed producer'));
  };
  const queue: Pending[] = [];
  let senders = 0;
  const flush = async () => {
    senders++;
    while (queue.length > 0) {
      const taken: Pending[] = [];
      let bytes = 0;
      while (queue.length > 0 && (taken.length === 0 || bytes + queue[0]!.bytes <= MAX_BYTES_PER_SEND)) {
        const next = queue.shift()!;
        taken.push(next);
        bytes += next.bytes;
      }
      let used: Producer | undefined;
      try {
        used = await obtain();
        const messages = taken.flatMap((p) => p.messages);
        // Measured once already: what was taken within the bound goes out as it is.
        for (const chunk of bytes <= MAX_BYTES_PER_SEND ? [messages] : chunksOf(messages)) {
          await produceMessages(used, topic, chunk);
        }
        for (const p of taken) p.resolve();
      } catch (err) {
        if (used) discard(used);
        for (const p of taken) p.reject(err);
      }
    }
    senders--;
  };
  return {
    send(records) {
      if (records.length === 0) return Promise.resolve();
      const messages = encodeHeaderValues(toMessages(topics.eventsAccepted, records));
      const bytes = messages.reduce((sum, m) => sum + encodedSizeOf(m), 0);
      return new Promise<void>((resolve, reject) => {
        queue.push({ messages, bytes, resolve, reject });
        if (senders < PARALLEL_SENDS) void flush();
      });
    },
    async close() {
      await producer?.disconnect();
    },
  };
}
