import { createTenant, startStack, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import { eventually } from '@engage/testkit/events.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdminToken } from '../operators/support.ts';
import { HeldTally, HostileReceiver, type Hostility } from './hostile-receiver.ts';
import { Receiver } from './receiver.ts';

// One organization's receivers misbehave (never answer, answer a byte at a time, trickle a body,
// flood one) on 16 endpoints; another organization's delivery must still go out while they are all
// held. The attempts' timeout is far longer than the test, so nothing held lets go on its own.
const TOTAL = 16;
const PER_ORGANIZATION = 8;
const PER_ENDPOINT = 2;
const MAX_ENDPOINTS = 16;

let stack: TestStack;
const hostile: HostileReceiver[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway'],
    webhooks: true,
    serviceEnv: {
      'control-plane': {
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        WEBHOOK_TIMEOUT_MS: '60000',
        WEBHOOK_RETRY_DELAYS_MS: '3600000',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_CONCURRENCY: String(TOTAL),
        WEBHOOK_CONCURRENCY_PER_ORGANIZATION: String(PER_ORGANIZATION),
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(PER_ENDPOINT),
        WEBHOOK_MAX_ENDPOINTS_PER_ENVIRONMENT: String(MAX_ENDPOINTS),
      },
    },
  });
}, 180_000);

afterAll(async () => {
  // Receivers first: their dropped connections end the attempts the gateway waits for on stop.
  await Promise.all([...hostile.map((r) => r.stop()), ...receivers.map((r) => r.down())]);
  await stack?.stop();
});

const admin = (method: string, path: string, body?: unknown) =>
  asAdminToken(stack.controlPlaneUrl, method, path, body);

async function subscribe(tenant: Tenant, url: string): Promise<string> {
  const created = await admin('POST', `/environments/${tenant.sandbox.environmentId}/webhooks`, {
    url,
    eventTypes: ['points.adjusted'],
  });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}

async function ping(webhookId: string): Promise<string> {
  const queued = await admin('POST', `/webhooks/${webhookId}/ping`);
  expect(queued.status).toBe(202);
  return (queued.body as { id: string }).id;
}

describe('webhook delivery slots shared fairly', () => {
  it("delivers another organization's webhook while one organization's hostile receivers hold theirs", async () => {
    const holders = new HeldTally();
    const flood = new HeldTally();
    const kinds: Hostility[] = [
      ...Array<Hostility>(5).fill('silent'),
      ...Array<Hostility>(4).fill('slow'),
      ...Array<Hostility>(5).fill('trickling'),
      ...Array<Hostility>(2).fill('huge'),
    ];
    const noisy = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
    for (const kind of kinds) {
      const receiver = await HostileReceiver.start(kind, kind === 'huge' ? flood : holders);
      hostile.push(receiver);
      const webhookId = await subscribe(noisy, receiver.url);
      // More deliveries than the endpoint's cap: they queue behind the held ones.
      for (let i = 0; i < PER_ENDPOINT + 1; i++) await ping(webhookId);
    }
    // The organization fills its share of the replica's slots with attempts that never end.
    await eventually('the noisy organization holding its share', async () =>
      holders.open === PER_ORGANIZATION ? true : undefined,
    );

    const quiet = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
    const good = await Receiver.start();
    receivers.push(good);
    const deliveryId = await ping(await subscribe(quiet, good.url));
    await good.until((got) => got.some((r) => r.id === deliveryId));

    // Arrived while every held attempt was still hanging: none of them let go meanwhile.
    expect(holders.closed).toBe(0);
    expect(holders.open).toBe(PER_ORGANIZATION);
    // Never more than the organization's share, nor more than the endpoint's cap on one receiver.
    expect(holders.most).toBe(PER_ORGANIZATION);
    for (const receiver of hostile) expect(receiver.own.most).toBeLessThanOrEqual(PER_ENDPOINT);
    // The flood was cut off, not read to its end: its slots came back.
    expect(flood.open).toBe(0);
  });

  it('refuses an endpoint beyond the limit per environment, also when created at once', async () => {
    const tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
    const path = `/environments/${tenant.sandbox.environmentId}/webhooks`;
    const answers = await Promise.all(
      Array.from({ length: MAX_ENDPOINTS + 4 }, (_, i) =>
        admin('POST', path, { url: `http://127.0.0.1:9/hook-${i}`, eventTypes: ['points.adjusted'] }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(MAX_ENDPOINTS).fill(201), ...Array(4).fill(409)]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ status: 409, code: 'webhook.too_many_endpoints' });
    }
    const listed = await admin('GET', path);
    expect((listed.body as { items: unknown[] }).items).toHaveLength(MAX_ENDPOINTS);
  });
});
