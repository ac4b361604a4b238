import { type AcceptedEvent, topics } from '@engage/contracts';
import { produceRecords } from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Producer } from 'kafkajs';

/**
 * The producer of accepted events. Batches of concurrent requests that arrive while a send is in
 * flight are coalesced into the next send (up to MAX_RECORDS_PER_SEND records): the idempotent
 * producer keeps one request in flight per broker, so without this every request would wait for
 * all earlier ones one by one. Each request still resolves only once its own records are
 * acknowledged, and fails if their send fails.
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

const MAX_RECORDS_PER_SEND = 8_000;

interface Pending {
  records: AcceptedEvent[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function createEventProducer(options: {
  initial: Producer;
  connect: () => Promise<Producer>;
  topicPrefix: string;
  log: Logger;
}): EventProducer {
  let producer: Producer | undefined = options.initial;
  // A new producer is connected on the next send after a failure; if that fails too, the sends
  // waiting for it fail at once (retryable) rather than hang through an outage.
  const obtain = async (): Promise<Producer> => {
    producer ??= await options.connect();
    return producer;
  };
  const discard = (failed: Producer) => {
    if (producer !== failed) return;
    producer = undefined;
    failed.disconnect().catch((err) => options.log.warn({ err }, 'could not disconnect a failed producer'));
  };
  const queue: Pending[] = [];
  let flushing = false;
  const flush = async () => {
    flushing = true;
    while (queue.length > 0) {
      const taken: Pending[] = [];
      let size = 0;
      while (
        queue.length > 0 &&
        (taken.length === 0 || size + queue[0]!.records.length <= MAX_RECORDS_PER_SEND)
      ) {
        const next = queue.shift()!;
        taken.push(next);
        size += next.records.length;
      }
      let used: Producer | undefined;
      try {
        used = await obtain();
        await produceRecords(
          used,
          topics.eventsAccepted,
          options.topicPrefix,
          taken.flatMap((p) => p.records),
        );
        for (const p of taken) p.resolve();
      } catch (err) {
        if (used) discard(used);
        for (const p of taken) p.reject(err);
      }
    }
    flushing = false;
  };
  return {
    send(records) {
      if (records.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        queue.push({ records, resolve, reject });
        if (!flushing) void flush();
      });
    },
    async close() {
      await producer?.disconnect();
    },
  };
}
