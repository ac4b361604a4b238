import { type AcceptedEvent, type TopicDefinition, topics } from '@engage/contracts';
import { createCatalogTopics, type PrivateKafka, startPrivateKafka } from '@engage/devstack';
import {
  createTenant,
  eventually,
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  TEST_ADMIN_TOKEN,
  type Tenant,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAcceptedEvents } from './support.ts';

/**
 * The gateway in its own process, producing to a broker of this test's own that the test stops
 * (SIGTERM, then SIGKILL) and restarts under load; then the topic is reconciled against every
 * answer the clients received. The shared broker is not touched.
 */

const CLIENTS = 4;
const ITEMS = 20;

let broker: PrivateKafka | undefined;
let gateway: ServiceProcess | undefined;
let controlPlane: ServiceProcess | undefined;
let tenant: Tenant;
let topicPrefix: string;

const timeline: string[] = [];
let lastMark = Date.now();
function mark(what: string) {
  timeline.push(`${what} ${Date.now() - lastMark} ms`);
  lastMark = Date.now();
}

beforeAll(async () => {
  lastMark = Date.now();
  broker = await startPrivateKafka();
  mark('broker started');
  topicPrefix = uniqueTopicPrefix();
  // The gateway's topics: accepted events, and what its outbox relay publishes (and it reads back).
  await createCatalogTopics(broker.brokers, topicPrefix, {
    topics: [
      topics.eventsAccepted,
      topics.apiKeys,
      topics.apiKeysState,
      topics.organizationsState,
      topics.definitionsApplied,
      topics.playersAttributes,
    ] as TopicDefinition<unknown>[],
  });
  const env = serviceEnv(topicPrefix, { KAFKA_BROKERS: broker.brokers.join(',') });
  gateway = await spawnService(stackConfig().repoRoot, 'gateway', env);
  controlPlane = await spawnService(stackConfig().repoRoot, 'control-plane', {
    ...env,
    GATEWAY_URL: gateway.url,
  });
  mark('gateway ready');
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN, {
    definition: { events: [{ key: 'tick', properties: { n: { type: 'number' } } }] },
  });
}, 120_000);

afterAll(async () => {
  await gateway?.kill('SIGKILL');
  await controlPlane?.kill('SIGKILL');
  await broker?.destroy();
});

interface Item {
  eventKey: 'tick';
  playerId: string;
  /** Names the item across attempts: client * 1e6 + batch * 1e3 + index. */
  properties: { n: number };
  idempotencyKey?: string;
}

interface Batch {
  items: Item[];
  /** Attempts answered with a retryable error before the one that was accepted. */
  failedAttempts: number;
  /** The eventId of each item from the 200 answer. */
  eventIds: string[];
}

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  ms: number;
}

const answers: Answer[] = [];
const batches: Batch[] = [];
let stopping = false;

const count = (ok: boolean) => answers.filter((a) => (a.status === 200) === ok).length;

function makeBatch(client: number, b: number): Batch {
  const items = Array.from({ length: ITEMS }, (_, i): Item => {
    // Each client has players of its own, so concurrent first sightings never collide (409).
    const item: Item = {
      eventKey: 'tick',
      playerId: `c${client}-p${i % 5}`,
      properties: { n: client * 1e6 + b * 1e3 + i },
    };
    // Every other item carries a key: a retry replays it; the keyless ones are new events each time.
    if (i % 2 === 0) item.idempotencyKey = `c${client}-b${b}-i${i}`;
    return item;
  });
  return { items, failedAttempts: 0, eventIds: [] };
}

/** Sends batch after batch, each until it is accepted, like a client following the retry rules. */
async function client(c: number): Promise<void> {
  for (let b = 0; !stopping; b++) {
    const batch = makeBatch(c, b);
    batches.push(batch);
    for (;;) {
      const started = Date.now();
      const res = await fetch(`${gateway!.url}/v1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.live.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: batch.items }),
      });
      const body = (await res.json()) as {
        code?: string;
        results?: { accepted: boolean; eventId: string | null }[];
      };
      const retryAfter = res.headers.get('retry-after');
      answers.push({ status: res.status, code: body.code, retryAfter, ms: Date.now() - started });
      if (res.status === 200) {
        batch.eventIds = body.results!.map((r) => r.eventId ?? '');
        expect(body.results!.every((r) => r.accepted)).toBe(true);
        break;
      }
      batch.failedAttempts++;
      await new Promise((resolve) => setTimeout(resolve, retryAfter ? Number(retryAfter) * 1000 : 250));
    }
  }
}

const waitFor = (what: string, done: () => boolean) =>
  eventually(what, async () => done() || undefined, { timeoutMs: 45_000, intervalMs: 50 });

/** Stops the broker under load, waits for refusals while it is down, restarts it, waits for acceptance. */
async function outage(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  const flowing = count(true) + CLIENTS;
  await waitFor('batches accepted before the outage', () => count(true) >= flowing);
  mark('load');
  await broker!.stop(signal);
  mark(signal);
  const refused = count(false) + 2;
  await waitFor(`error answers while the broker is down (${signal})`, () => count(false) >= refused);
  mark('refusals');
  await broker!.start();
  mark('restart');
  const accepted = count(true) + CLIENTS;
  await waitFor(`batches accepted after the restart (${signal})`, () => count(true) >= accepted);
  mark('accepted again');
}

describe('broker stopped and restarted under load', () => {
  it('answers retryable errors while Kafka is down and reports accepted only what is on the topic', async () => {
    const t0 = Date.now();
    const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
    try {
      await outage('SIGTERM');
      await outage('SIGKILL');
    } finally {
      stopping = true;
      await Promise.all(clients);
    }
    const refusals = answers.filter((a) => a.status !== 200);
    console.log(
      `${answers.length} answers (${refusals.length} refused) for ${batches.length} batches in ${Date.now() - t0} ms; ` +
        `slowest refusal ${Math.max(...refusals.map((a) => a.ms))} ms; ${timeline.join(', ')}`,
    );

    // Every refusal is the retryable error; nothing else was answered.
    expect(new Set(refusals.map((a) => `${a.status} ${a.code} retry-after=${a.retryAfter}`))).toEqual(
      new Set(['500 server.unexpected retry-after=1']),
    );

    reconcile(await readAcceptedEvents(topicPrefix, tenant.live.environmentId, broker!.brokers));
  }, 150_000);
});

/**
 * The topic against the answers. Per item (named by its `n`):
 * - the eventId answered is on the topic; with a key, every record of the item carries it, and it
 *   is there more than once only when an attempt answered with an error had sent it already
 *   (at most once per failed attempt);
 * - without a key, the answered eventId is there exactly once; other records of the item come only
 *   from attempts answered with an error (at most one each), and their eventIds were never answered.
 */
function reconcile(records: AcceptedEvent[]) {
  const byItem = new Map<number, AcceptedEvent[]>();
  for (const record of records) {
    const n = Number(record.properties.n?.number);
    byItem.set(n, [...(byItem.get(n) ?? []), record]);
  }
  const answered = new Set(batches.flatMap((b) => b.eventIds));
  let duplicates = 0;
  let phantoms = 0;
  for (const batch of batches) {
    batch.items.forEach((item, i) => {
      const eventId = batch.eventIds[i]!;
      const found = byItem.get(item.properties.n) ?? [];
      byItem.delete(item.properties.n);
      const same = found.filter((r) => r.eventId === eventId);
      const others = found.filter((r) => r.eventId !== eventId);
      expect(
        same.length,
        `item ${item.properties.n}: its answered eventId on the topic`,
      ).toBeGreaterThanOrEqual(1);
      if (item.idempotencyKey !== undefined) {
        expect(others, `item ${item.properties.n}: one key, one eventId`).toEqual([]);
        expect(same.length).toBeLessThanOrEqual(1 + batch.failedAttempts);
        duplicates += same.length - 1;
      } else {
        expect(same).toHaveLength(1);
        expect(others.length).toBeLessThanOrEqual(batch.failedAttempts);
        for (const r of others) expect(answered.has(r.eventId)).toBe(false);
        phantoms += others.length;
      }
      for (const r of found) {
        expect([r.playerId, r.eventKey, r.idempotencyKey]).toEqual([
          item.playerId,
          'tick',
          item.idempotencyKey ?? null,
        ]);
      }
    });
  }
  // Nothing on the topic that no client sent.
  expect([...byItem.keys()]).toEqual([]);
  console.log(
    `${records.length} records for ${batches.length * ITEMS} items: ${duplicates} keyed re-sends of an eventId, ` +
      `${phantoms} keyless records of refused attempts`,
  );
}
