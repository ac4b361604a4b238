// The worker thread behind `startUpdateStream` (leaderboard-updates.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { createEventProducer } from '@engage/gateway/kafka/event-producer.ts';
import { createLogger } from '@engage/kit';
import {
  scoreUpdates,
  type UpdateStreamConfig,
  type UpdateStreamReply,
  type UpdateStreamRequest,
} from './leaderboard-updates.ts';

/** Sends every TICK_MS, so the updates process sees a steady stream rather than bursts. */
const TICK_MS = 20;
/** Events per send when queueing a backlog (the producer splits a send under the broker's limit). */
const QUEUE_CHUNK = 10_000;

const config = workerData as UpdateStreamConfig;
const port = parentPort!;
// The gateway's own producer of accepted events: the stream costs the machine what a gateway's would.
const producer = await createEventProducer({
  brokers: config.brokers,
  clientId: 'bench-score-stream',
  topicPrefix: config.topicPrefix,
  log: createLogger('bench', 'warn'),
});
const answer = (reply: UpdateStreamReply) => port.postMessage(reply);

port.on('message', async (request: UpdateStreamRequest) => {
  if (request === 'close') {
    await producer.close();
    port.close();
    return;
  }
  answer({
    sent:
      'count' in request
        ? await queue(request.from, request.count)
        : await streamFor(request.from, request.seconds),
  });
});
answer({ ready: true });

async function streamFor(from: number, seconds: number): Promise<number> {
  const batch = Math.max(1, Math.round((config.ratePerSecond * TICK_MS) / 1000));
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let sent = 0;
  for (let tick = 1; performance.now() < deadline; tick++) {
    await producer.send(scoreUpdates(config.env, from + sent, batch));
    sent += batch;
    const wait = start + tick * TICK_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return sent;
}

/** `count` events in sends of QUEUE_CHUNK, each awaited. */
async function queue(from: number, count: number): Promise<number> {
  for (let i = 0; i < count; i += QUEUE_CHUNK) {
    await producer.send(scoreUpdates(config.env, from + i, Math.min(QUEUE_CHUNK, count - i)));
  }
  return count;
}
