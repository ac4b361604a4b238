import { parentPort, workerData } from 'node:worker_threads';
import { connectProducer, createKafka } from '@engage/kafka';
import { createLogger, routeProcessWarnings } from '@engage/kit';
import type { IHeaders, Message } from 'kafkajs';
import { createMessageSender } from './event-producer.ts';

/**
 * The thread that runs the gateway's kafkajs producer (started by threaded-event-producer.ts). It
 * receives each request's encoded messages, sends them with the same sender as the in-thread
 * producer, and answers each request with its outcome.
 */
export interface ProducerThreadOptions {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  logLevel: string;
}

export type ToProducerThread =
  | { type: 'send'; id: number; keys: string[]; values: Uint8Array[]; headers: IHeaders; bytes: number }
  | { type: 'close' };

export type FromProducerThread =
  | { type: 'ready' }
  | { type: 'sent'; id: number; error?: string }
  | { type: 'produced'; seconds: number };

const port = parentPort!;
const answer = (message: FromProducerThread) => port.postMessage(message);
const options = workerData as ProducerThreadOptions;
const log = createLogger('gateway', options.logLevel);
// A thread's process warnings are its own: routed as the service's main thread routes them.
routeProcessWarnings((warning) => log.warn({ err: warning }, 'process warning'));
const kafka = createKafka({ brokers: options.brokers, clientId: options.clientId, log });
const sender = createMessageSender({
  initial: await connectProducer(kafka),
  connect: () => connectProducer(kafka),
  topicPrefix: options.topicPrefix,
  log,
  produced: (seconds) => answer({ type: 'produced', seconds }),
});

/** Buffers arrive as Uint8Arrays (views of the request's encoded slabs); kafkajs needs Buffers. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

port.on('message', (request: ToProducerThread) => {
  if (request.type === 'close') {
    // Ends this thread (only) once the producer has disconnected.
    sender.close().finally(() => process.exit(0));
    return;
  }
  const headers: IHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = value instanceof Uint8Array ? asBuffer(value) : value;
  }
  const messages: Message[] = request.keys.map((key, i) => ({
    key,
    value: asBuffer(request.values[i]!),
    headers,
  }));
  sender.send(messages, request.bytes).then(
    () => answer({ type: 'sent', id: request.id }),
    (err: unknown) => answer({ type: 'sent', id: request.id, error: (err as Error)?.message ?? String(err) }),
  );
});
answer({ type: 'ready' });
