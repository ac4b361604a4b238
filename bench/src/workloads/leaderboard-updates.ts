import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { AcceptedEvent, EnvironmentContext } from '@engage/contracts';

/** Players the score updates spread over. */
export const UPDATE_PLAYERS = 200_000;

/** `count` "scored" events from the `from`th on, each worth 1–50 points to one of UPDATE_PLAYERS. */
export function scoreUpdates(env: EnvironmentContext, from: number, count: number): AcceptedEvent[] {
  const now = new Date().toISOString();
  return Array.from({ length: count }, (_, k) => ({
    eventId: randomUUID(),
    organizationId: env.organizationId,
    environmentId: env.environmentId,
    environmentKind: env.environmentKind,
    playerId: `p${((from + k) * 7_919) % UPDATE_PLAYERS}`,
    eventKey: 'scored',
    occurredAt: now,
    receivedAt: now,
    timeZone: null,
    properties: {
      points: {
        type: 'Number',
        string: null,
        number: String(1 + ((from + k) % 50)),
        boolean: null,
        dateTime: null,
      },
    },
    idempotencyKey: null,
  }));
}

export interface UpdateStreamConfig {
  brokers: string[];
  topicPrefix: string;
  env: EnvironmentContext;
  ratePerSecond: number;
}

/**
 * What the worker is asked: stream for `seconds`, or send `count` at once, numbering events from
 * `from`; or stop.
 */
export type UpdateStreamRequest =
  | { from: number; seconds: number }
  | { from: number; count: number }
  | 'close';
/** What it answers: ready once connected, then the events sent per request. */
export type UpdateStreamReply = { ready: true } | { sent: number };

export interface UpdateStream {
  /** Produces at the configured rate for `seconds`; resolves to the number of events sent. */
  stream(from: number, seconds: number): Promise<number>;
  /** Produces `count` events as fast as the producer takes them (a backlog for the consumer). */
  queue(from: number, count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Score updates produced from a worker thread, at a fixed rate or as a backlog, so that building,
 * encoding and sending them runs on an event loop of its own, not on the one that times the reads.
 */
export async function startUpdateStream(config: UpdateStreamConfig): Promise<UpdateStream> {
  const worker = new Worker(new URL('./leaderboard-update-worker.ts', import.meta.url), {
    workerData: config,
  });
  const reply = async () => {
    const [message] = (await once(worker, 'message')) as [UpdateStreamReply];
    return message;
  };
  await reply();
  const ask = async (request: UpdateStreamRequest) => {
    worker.postMessage(request);
    const message = await reply();
    return 'sent' in message ? message.sent : 0;
  };
  return {
    stream: (from, seconds) => ask({ from, seconds }),
    async queue(from, count) {
      await ask({ from, count });
    },
    async close() {
      worker.postMessage('close' satisfies UpdateStreamRequest);
      await once(worker, 'exit');
    },
  };
}
