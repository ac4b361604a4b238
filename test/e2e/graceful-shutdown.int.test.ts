import { topics } from '@engage/contracts';
import {
  createTenant,
  readTopicRecords,
  type ServiceProcess,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SIGTERM under load: a service stops taking requests, finishes the ones in flight and exits 0.
 * Every request answered 200 is durable; every other one got a retryable answer or a connection
 * error, and is sent again with its idempotency key once the service is back. Nothing is lost,
 * nothing is doubled.
 */
interface Attempt<T> {
  body: T;
  answered?: unknown;
}

/** Sends `next()` requests from `workers` loops until `stopped()`; keeps the 200s and the rest apart. */
async function load<T>(options: {
  workers: number;
  next: (worker: number, n: number) => T;
  send: (body: T) => Promise<Response>;
  stopped: () => boolean;
  onAnswered?: () => void;
}) {
  const answered: Attempt<T>[] = [];
  const unanswered: T[] = [];
  await Promise.all(
    Array.from({ length: options.workers }, async (_, worker) => {
      for (let n = 0; !options.stopped(); n++) {
        const body = options.next(worker, n);
        try {
          const res = await options.send(body);
          if (res.status === 200) {
            answered.push({ body, answered: await res.json() });
            options.onAnswered?.();
            continue;
          }
          // Only retryable answers are acceptable while a service stops.
          expect([500, 502, 503]).toContain(res.status);
          await res.body?.cancel();
        } catch {
          // Connection refused or reset: the client retries with its key.
        }
        unanswered.push(body);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
  return { answered, unanswered };
}

describe('graceful shutdown under load', () => {
  let stack: TestStack;
  let tenant: Tenant;
  const post = (path: string, body: unknown) =>
    fetch(`${stack.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.live.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startStack({ services: ['ledger', 'gateway'] });
    tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: {
        discovery: false,
        events: [
          { key: 'level_completed', active: true, properties: { level: { type: 'number', required: true } } },
        ],
      },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** SIGTERMs `service` once `answers` requests got a 200, restarts it when it has exited. */
  const stopDuringLoad = (service: ServiceProcess, answers: number) => {
    let count = 0;
    let stopped = false;
    let exitCode: number | null | undefined;
    const { promise: exited, resolve } = Promise.withResolvers<void>();
    return {
      onAnswered: () => {
        count += 1;
        if (count !== answers) return;
        void service.stop().then((code) => {
          exitCode = code;
          stopped = true;
          resolve();
        });
      },
      stopped: () => stopped,
      exited,
      exitCode: () => exitCode,
    };
  };

  it('a gateway stopping during an event load loses and doubles no event', async () => {
    const gateway = stack.services.gateway!;
    const shutdown = stopDuringLoad(gateway, 20);
    type Batch = {
      events: { eventKey: string; playerId: string; idempotencyKey: string; properties: object }[];
    };
    const batch = (worker: number, n: number): Batch => ({
      events: Array.from({ length: 25 }, (_, i) => ({
        eventKey: 'level_completed',
        playerId: `shutdown-${worker}`,
        idempotencyKey: `w${worker}-b${n}-i${i}`,
        properties: { level: i },
      })),
    });
    const { answered, unanswered } = await load({
      workers: 4,
      next: batch,
      send: (body) => post('/v1/events', body),
      stopped: shutdown.stopped,
      onAnswered: shutdown.onAnswered,
    });
    await shutdown.exited;
    expect(shutdown.exitCode()).toBe(0);

    await gateway.restart();
    for (const body of unanswered) expect((await post('/v1/events', body)).status).toBe(200);

    const sent = [...answered.map((a) => a.body), ...unanswered].flatMap((b) => b.events);
    const records = (await readTopicRecords(stack.topicPrefix, topics.eventsAccepted)).filter(
      (r) => r.environmentId === tenant.live.environmentId,
    );
    const keys = records.map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys)).toEqual(new Set(sent.map((e) => e.idempotencyKey)));
    const eventIds = new Set(records.map((r) => r.eventId));
    for (const attempt of answered) {
      for (const result of (attempt.answered as { results: { eventId: string }[] }).results) {
        expect(eventIds.has(result.eventId)).toBe(true);
      }
    }
  });

  it('a ledger stopping during adjustments loses and doubles no points', async () => {
    const ledger = stack.services.ledger!;
    const shutdown = stopDuringLoad(ledger, 30);
    const playerId = `shutdown-ledger-${crypto.randomUUID()}`;
    const { answered, unanswered } = await load({
      workers: 4,
      next: (worker, n) => ({ playerId, amount: 1, idempotencyKey: `adj-${worker}-${n}` }),
      send: (body) => post('/v1/points/adjustments', body),
      stopped: shutdown.stopped,
      onAnswered: shutdown.onAnswered,
    });
    await shutdown.exited;
    expect(shutdown.exitCode()).toBe(0);

    await ledger.restart();
    for (const body of unanswered) expect((await post('/v1/points/adjustments', body)).status).toBe(200);

    const sent = answered.length + unanswered.length;
    const balance = await fetch(`${stack.gatewayUrl}/v1/points?PlayerId=${playerId}`, {
      headers: { authorization: `Bearer ${tenant.live.apiKey}` },
    });
    expect(await balance.json()).toMatchObject({ balance: sent });
  });
});
