import { type AcceptedEvent, topics } from '@engage/contracts';
import { produceRecords } from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Producer } from 'kafkajs';

/**
 * The producer of accepted events, replaced after any failed send. An idempotent kafkajs producer
 * whose send failed may hold sequence numbers the broker already used (a send can land and still
 * fail on the way back); a later batch reusing them is taken by the broker as a duplicate and
 * silently dropped while kafkajs reports success. A fresh producer gets a new producer id, so
 * nothing acknowledged can be lost that way.
 */
export interface EventProducer {
  send(records: AcceptedEvent[]): Promise<void>;
  close(): Promise<void>;
}

export function createEventProducer(options: {
  initial: Producer;
  connect: () => Promise<Producer>;
  topicPrefix: string;
  log: Logger;
}): EventProducer {
  let current: Promise<Producer> = Promise.resolve(options.initial);
  const replace = (failed: Producer) => {
    current = current.then(async (producer) => {
      if (producer !== failed) return producer; // another failed send replaced it already
      failed.disconnect().catch((err) => options.log.warn({ err }, 'could not disconnect a failed producer'));
      for (;;) {
        try {
          return await options.connect();
        } catch (err) {
          options.log.error({ err }, 'could not connect a new producer; trying again');
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    });
  };
  return {
    async send(records) {
      const producer = await current;
      try {
        await produceRecords(producer, topics.eventsAccepted, options.topicPrefix, records);
      } catch (err) {
        replace(producer);
        throw err;
      }
    },
    async close() {
      await (await current).disconnect();
    },
  };
}
