// The network between the gateway and its broker cut while the broker keeps running: sends can land
// and lose their acknowledgement, the path that re-sends keyed eventIds. The gateway reaches a broker
// of this test's own through a TCP link the test cuts, whatever Kafka client the gateway uses. A
// real broker stop and restart is in broker-restart.int.test.ts.

import { topicName, topics } from '@engage/contracts';
import { type LinkedBrokers, type PrivateKafka, startPrivateKafka } from '@engage/devstack';
import { metricsRegistry } from '@engage/kit';
import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, readAcceptedEvents, startGateway } from './support.ts';

let broker: PrivateKafka | undefined;
let link: LinkedBrokers;
let gateway: InProcessGateway;
let tenant: Tenant;

beforeAll(async () => {
  broker = await startPrivateKafka({ link: true });
  link = broker.link!;
  gateway = await startGateway({ brokers: link.brokers, failFast: true });
  tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: { events: [{ key: 'tick', properties: { n: { type: 'number' } } }] },
  });
}, 120_000);
afterAll(async () => {
  await link?.restore();
  await gateway?.close();
  await broker?.destroy();
});

const CLIENTS = 4;
const BATCHES = 6;
const ITEMS = 20;

describe('broker outage under load', () => {
  it('answers a retryable 500 while the broker is unreachable and reports nothing accepted that is not in Kafka', async () => {
    const answered = new Map<string, string>(); // idempotency key -> eventId answered
    const keyless: string[] = []; // eventIds answered for items without a key
    const statuses: number[] = [];
    let sent = 0;

    const client = async (c: number) => {
      for (let b = 0; b < BATCHES; b++) {
        const events = Array.from({ length: ITEMS }, (_, i) => ({
          eventKey: 'tick',
          playerId: `player-${(c * 7 + i) % 25}`,
          properties: { n: b * ITEMS + i },
          // Every other item carries a key: keyed items replay, keyless ones are written again.
          ...(i % 2 === 0 ? { idempotencyKey: `${c}-${b}-${i}` } : {}),
        }));
        for (;;) {
          const res = await gateway.app.inject({
            method: 'POST',
            url: '/v1/events',
            headers: bearer(tenant.live.apiKey),
            payload: { events },
          });
          statuses.push(res.statusCode);
          sent++;
          if (res.statusCode === 200) {
            const body = res.json() as { results: { accepted: boolean; eventId: string }[] };
            body.results.forEach((r, i) => {
              expect(r.accepted).toBe(true);
              const key = events[i]!.idempotencyKey;
              if (key === undefined) keyless.push(r.eventId);
              else {
                const before = answered.get(key);
                if (before) expect(r.eventId).toBe(before);
                answered.set(key, r.eventId);
              }
            });
            break;
          }
          expect([res.statusCode, res.json().code, res.headers['retry-after']]).toEqual([
            500,
            'server.unexpected',
            '1',
          ]);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };

    const outage = (async () => {
      while (sent < CLIENTS * 3) await new Promise((resolve) => setTimeout(resolve, 20));
      link.cut();
      // Stays down until requests were refused (no timing assumptions).
      while (statuses.filter((s) => s === 500).length < 2) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await link.restore();
    })();
    await Promise.all([outage, ...Array.from({ length: CLIENTS }, (_, c) => client(c))]);

    expect(statuses.filter((s) => s === 500).length).toBeGreaterThanOrEqual(2);
    const failedSends = await metricsRegistry.getSingleMetric('kafka_produce_failures_total')?.get();
    const topic = topicName(topics.eventsAccepted, gateway.topicPrefix);
    expect(failedSends?.values.find((v) => v.labels.topic === topic)?.value).toBeGreaterThanOrEqual(1);
    expect(answered.size).toBe((CLIENTS * BATCHES * ITEMS) / 2);

    // Reconcile the topic against the answers.
    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId, broker!.brokers);
    const onTopic = new Set(records.map((r) => r.eventId));
    for (const eventId of answered.values()) expect(onTopic.has(eventId)).toBe(true);
    // A key is never written under two eventIds (a failed send that landed is re-sent with its eventId).
    const idsByKey = new Map<string, Set<string>>();
    for (const r of records) {
      if (r.idempotencyKey === null) continue;
      const ids = idsByKey.get(r.idempotencyKey) ?? new Set();
      ids.add(r.eventId);
      idsByKey.set(r.idempotencyKey, ids);
    }
    for (const [key, ids] of idsByKey) expect([...ids]).toEqual([answered.get(key)]);
    // Keyless items answered accepted are all there (a failed attempt may have landed as well).
    for (const eventId of keyless) expect(onTopic.has(eventId)).toBe(true);
    expect(keyless).toHaveLength((CLIENTS * BATCHES * ITEMS) / 2);
  });
});
