import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { topicName, topics } from '@engage/contracts';
import { produceDuration } from '@engage/kafka';
import type { Logger } from '@engage/kit';
import { type EventProducer, encodeAcceptedEvents } from './event-producer.ts';
import type { FromProducerThread, ProducerThreadOptions, ToProducerThread } from './producer-thread.ts';

/** One producer thread: its requests in flight are failed if it stops. */
export interface ProducerThread {
  send(message: Extract<ToProducerThread, { type: 'send' }>): Promise<void>;
  /** Disconnects its producer and ends the thread. */
  close(): Promise<void>;
  /** Ends the thread at once, as a crash would. */
  terminate(): Promise<void>;
  /** Set once the thread has stopped (crashed or closed); it takes no more sends. */
  stopped(): Error | undefined;
}

/**
 * The producer of accepted events with kafkajs on a thread of its own. kafkajs's work (grouping
 * records by partition, encoding records and their headers, CRC32C) was about half of the
 * gateway's one JavaScript thread; here the request's thread Avro-encodes its records and hands
 * them over, and the producer thread sends them as the in-thread producer does (the same sender:
 * the same send bounds, a failed kafkajs producer replaced). A request resolves only once its
 * records are acknowledged and fails if their send fails or the thread stops; a stopped thread is
 * replaced by a new one on the next send.
 */
export async function startThreadedEventProducer(
  options: ProducerThreadOptions & { log: Logger },
  startThread = startProducerThread,
): Promise<EventProducer> {
  const { log, ...threadOptions } = options;
  const start = () => startThread(threadOptions, log);
  let thread = await start();
  let starting: Promise<ProducerThread> | undefined;
  const current = async () => {
    if (!thread.stopped()) return thread;
    starting ??= start().finally(() => {
      starting = undefined;
    });
    thread = await starting;
    return thread;
  };
  let nextId = 0;
  return {
    async send(records) {
      if (records.length === 0) return;
      const { messages, bytes } = encodeAcceptedEvents(records);
      await (await current()).send({
        type: 'send',
        id: nextId++,
        keys: messages.map((m) => m.key as string),
        values: messages.map((m) => m.value as Buffer),
        headers: messages[0]!.headers!,
        bytes,
      });
    },
    close: () => thread.close(),
  };
}

export async function startProducerThread(
  workerData: ProducerThreadOptions,
  log: Logger,
): Promise<ProducerThread> {
  const topic = topicName(topics.eventsAccepted, workerData.topicPrefix);
  const worker = new Worker(new URL('./producer-thread.ts', import.meta.url), { workerData });
  const inFlight = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let stopped: Error | undefined;
  const stop = (err: Error) => {
    stopped ??= err;
    for (const request of inFlight.values()) request.reject(stopped);
    inFlight.clear();
  };
  worker.on('error', (err) => {
    log.error({ err }, 'the Kafka producer thread failed');
    stop(err);
  });
  worker.on('exit', (code) => stop(new Error(`the Kafka producer thread exited with ${code}`)));
  worker.on('message', (message: FromProducerThread) => {
    if (message.type === 'produced') produceDuration.observe({ topic }, message.seconds);
    if (message.type !== 'sent') return;
    const request = inFlight.get(message.id);
    inFlight.delete(message.id);
    if (message.error === undefined) request?.resolve();
    else request?.reject(new Error(message.error));
  });
  // The first message is `ready` once its kafkajs producer is connected; an error or exit first
  // (a broker unreachable at start) fails the start, as connecting in-thread would.
  await new Promise<void>((resolve, reject) => {
    const failed = () => reject(stopped);
    worker.once('message', (message: FromProducerThread) => {
      worker.off('exit', failed);
      if (message.type === 'ready') resolve();
    });
    worker.once('exit', failed);
  });
  return {
    send(message) {
      if (stopped) return Promise.reject(stopped);
      return new Promise<void>((resolve, reject) => {
        inFlight.set(message.id, { resolve, reject });
        worker.postMessage(message satisfies ToProducerThread);
      });
    },
    async close() {
      if (stopped) return;
      const exited = once(worker, 'exit');
      worker.postMessage({ type: 'close' } satisfies ToProducerThread);
      await exited;
    },
    async terminate() {
      await worker.terminate();
    },
    stopped: () => stopped,
  };
}
