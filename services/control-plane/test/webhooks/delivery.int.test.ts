import {
  createTenant,
  internalHeaders,
  signedAsGateway,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdminToken } from '../operators/support.ts';
import { Receiver } from './receiver.ts';

// Deliveries end to end: points adjustments through the gateway and the ledger reach the journal
// topic; the gateway's consumer queues them and its worker sends them to real HTTP receivers on
// loopback. A short retry schedule (7 attempts over about 6 s) keeps the file fast.
let stack: TestStack;
let tenant: Tenant;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startStack({
    services: ['ledger', 'gateway'],
    webhooks: true,
    env: { KAFKA_SESSION_TIMEOUT_MS: '6000' },
    serviceEnv: {
      'control-plane': {
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        WEBHOOK_RETRY_DELAYS_MS: '100,200,400,800,1600,3200',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      },
    },
  });
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await Promise.all(receivers.map((receiver) => receiver.down()));
});

const admin = (method: string, path: string, body?: unknown) =>
  asAdminToken(stack.controlPlaneUrl, method, path, body);

async function receiver(): Promise<Receiver> {
  const started = await Receiver.start();
  receivers.push(started);
  return started;
}

async function subscribe(to: Receiver, eventTypes: string[] = ['points.adjusted']) {
  const created = await admin('POST', `/environments/${tenant.sandbox.environmentId}/webhooks`, {
    url: to.url,
    eventTypes,
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

/** Adjusts the player's points through the gateway; answers the journal entry (the payload's transactionId). */
async function adjust(playerId: string, amount = 1): Promise<string> {
  const response = await fetch(`${stack.gatewayUrl}/v1/points/adjustments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ playerId, amount, reason: 'test' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { transactionId: string }).transactionId;
}

const transactionsOf = (r: Receiver, answered?: 'acknowledged') =>
  r.received
    .filter((x) => answered === undefined || (x.answered !== null && x.answered < 300))
    .map((x) => x.payload.data.transactionId as string);

async function deliveries(webhookId: string) {
  const page = await admin('GET', `/webhooks/${webhookId}/deliveries?limit=100`);
  expect(page.status).toBe(200);
  return page.body.items as {
    id: string;
    status: string;
    attempts: number;
    payload: { data: { transactionId: string } };
  }[];
}

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const player = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

describe('webhook deliveries', () => {
  it('sends a signed delivery that standardwebhooks verifies, and records it', async () => {
    const hooks = await receiver();
    const endpoint = await subscribe(hooks);
    const someone = player('signed');
    const transactionId = await adjust(someone, 5);
    await hooks.until((got) => got.length === 1);
    const [request] = hooks.received;
    const verified = new Webhook(endpoint.secret).verify(request!.body, {
      'webhook-id': request!.id,
      'webhook-timestamp': request!.timestamp,
      'webhook-signature': request!.signature,
    });
    expect(verified).toEqual({
      id: request!.id,
      type: 'points.adjusted',
      timestamp: expect.any(String),
      environmentId: tenant.sandbox.environmentId,
      data: {
        playerId: someone,
        transactionId,
        amount: 5,
        balanceAfter: 5,
        reason: 'test',
        adjustedAt: expect.any(String),
      },
    });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request!.body, {
        'webhook-id': request!.id,
        'webhook-timestamp': request!.timestamp,
        'webhook-signature': request!.signature,
      }),
    ).toThrow();

    const [delivery] = await waitFor(
      () => deliveries(endpoint.id),
      (items) => items[0]?.status === 'delivered',
    );
    expect(delivery).toMatchObject({
      id: request!.id,
      eventType: 'points.adjusted',
      playerId: someone,
      status: 'delivered',
      attempts: 1,
      responseStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    const health = (await admin('GET', `/webhooks/${endpoint.id}`)).body.health;
    expect(health).toMatchObject({ lastStatus: 'delivered', consecutiveFailures: 0, pendingDeliveries: 0 });

    const ping = await admin('POST', `/webhooks/${endpoint.id}/ping`);
    expect(ping.status).toBe(202);
    await hooks.until((got) => got.some((r) => r.id === ping.body.id && r.answered === 200));
  });

  it('signs with both secrets during a rotation overlap, then with the new one only', async () => {
    const hooks = await receiver();
    const endpoint = await subscribe(hooks);
    const rotated = await admin('POST', `/webhooks/${endpoint.id}/rotate-secret`, { overlapSeconds: 3600 });
    await adjust(player('rotated'));
    await hooks.until((got) => got.length === 1);
    const first = hooks.received[0]!;
    const headers = (r: typeof first) => ({
      'webhook-id': r.id,
      'webhook-timestamp': r.timestamp,
      'webhook-signature': r.signature,
    });
    expect(first.signature.split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(first.body, headers(first))).toMatchObject({ id: first.id });
    expect(new Webhook(rotated.body.secret).verify(first.body, headers(first))).toMatchObject({
      id: first.id,
    });

    const atOnce = await admin('POST', `/webhooks/${endpoint.id}/rotate-secret`, { overlapSeconds: 0 });
    await adjust(player('rotated'));
    await hooks.until((got) => got.length === 2);
    const second = hooks.received[1]!;
    expect(second.signature.split(' ')).toHaveLength(1);
    expect(new Webhook(atOnce.body.secret).verify(second.body, headers(second))).toMatchObject({
      id: second.id,
    });
    expect(() => new Webhook(rotated.body.secret).verify(second.body, headers(second))).toThrow();
  });

  it("keeps one player's deliveries in order while the first retries; others' go on", async () => {
    const hooks = await receiver();
    await subscribe(hooks);
    const slow = player('slow');
    const other = player('other');
    const firstOfSlow = await adjust(slow);
    let failures = 0;
    // The slow player's first delivery fails until the other player's has arrived (at least twice).
    hooks.answer = (request) => {
      if (request.payload.data.transactionId !== firstOfSlow) return 200;
      const otherArrived = hooks.received.some((r) => r.payload.data.playerId === other);
      if (failures < 2 || !otherArrived) {
        failures++;
        return 500;
      }
      return 200;
    };
    const laterOfSlow = [await adjust(slow), await adjust(slow)];
    const ofOther = await adjust(other);
    await hooks.until(
      (got) => got.filter((r) => r.payload.data.playerId === slow && r.answered === 200).length === 3,
    );

    const slowAttempts = hooks.received.filter((r) => r.payload.data.playerId === slow);
    const acknowledgedFirst = slowAttempts.findIndex((r) => r.answered === 200);
    // Nothing later of the slow player was sent before its first delivery was acknowledged.
    expect(
      slowAttempts.slice(0, acknowledgedFirst + 1).every((r) => r.payload.data.transactionId === firstOfSlow),
    ).toBe(true);
    expect(acknowledgedFirst).toBeGreaterThanOrEqual(2);
    expect(slowAttempts.filter((r) => r.answered === 200).map((r) => r.payload.data.transactionId)).toEqual([
      firstOfSlow,
      ...laterOfSlow,
    ]);
    // The same delivery id on every attempt.
    expect(new Set(slowAttempts.slice(0, acknowledgedFirst + 1).map((r) => r.id)).size).toBe(1);
    // The other player's delivery went out while the slow player's first was still failing.
    const otherAt = hooks.received.find((r) => r.payload.data.transactionId === ofOther)!.at;
    expect(otherAt).toBeLessThan(slowAttempts[acknowledgedFirst]!.at);
  });

  it('sends what queued while the receiver was down once it is back, each once', async () => {
    const hooks = await receiver();
    const endpoint = await subscribe(hooks);
    await hooks.down();
    const made = [await adjust(player('down')), await adjust(player('down')), await adjust(player('down'))];
    await waitFor(
      () => deliveries(endpoint.id),
      (items) => items.length === 3 && items.every((d) => d.attempts >= 2),
    );
    const failing = (await admin('GET', `/webhooks/${endpoint.id}`)).body;
    expect(failing.health.lastStatus).toBe('failed');
    expect(failing.health.consecutiveFailures).toBeGreaterThanOrEqual(6);
    const [one] = await deliveries(endpoint.id);
    expect((one as unknown as { lastError: string }).lastError).toBe('connection refused');

    await hooks.up();
    await hooks.until((got) => got.length === 3);
    expect(transactionsOf(hooks).sort()).toEqual([...made].sort());
    const items = await waitFor(
      () => deliveries(endpoint.id),
      (list) => list.every((d) => d.status === 'delivered'),
    );
    expect(items).toHaveLength(3);
    expect(new Set(hooks.received.map((r) => r.id)).size).toBe(3);
  });

  it('pauses an endpoint whose delivery fails every attempt; resuming sends what it kept, replay the rest', async () => {
    const hooks = await receiver();
    const endpoint = await subscribe(hooks);
    hooks.answer = () => 503;
    const someone = player('exhausted');
    const exhausted = await adjust(someone);
    const paused = await waitFor(
      () => admin('GET', `/webhooks/${endpoint.id}`),
      (answer) => answer.body.status === 'paused',
      30_000,
    );
    expect(paused.body.pausedReason).toMatch(/failed all 7 attempts \(last: HTTP 503\)/);
    expect(paused.body.pausedAt).not.toBeNull();
    expect(hooks.received).toHaveLength(7);
    const metrics = await (await fetch(stack.services['control-plane']!.metricsUrl)).text();
    expect(metrics).toMatch(/engage_webhook_attempts_total\{outcome="exhausted"\} [1-9]/);
    expect(metrics).toMatch(/engage_webhook_attempts_total\{outcome="retry"\} [1-9]/);
    const [failed] = await deliveries(endpoint.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 7 });

    // Changes while paused are kept, not sent.
    const kept = [await adjust(someone), await adjust(someone), await adjust(player('exhausted'))];
    await waitFor(
      () => admin('GET', `/webhooks/${endpoint.id}`),
      (answer) => answer.body.health.pendingDeliveries === 3,
    );
    expect(hooks.received).toHaveLength(7);

    hooks.answer = () => 200;
    const resumed = await admin('PATCH', `/webhooks/${endpoint.id}`, { status: 'active' });
    expect(resumed.body).toMatchObject({
      status: 'active',
      pausedReason: null,
      health: { consecutiveFailures: 0 },
    });
    await hooks.until((got) => got.length === 10);
    const sentAfter = hooks.received.slice(7).map((r) => r.payload.data.transactionId);
    expect([...sentAfter].sort()).toEqual([...kept].sort());
    expect(sentAfter.filter((t) => t !== kept[2])).toEqual(kept.slice(0, 2));

    const replay = await admin('POST', `/webhooks/${endpoint.id}/deliveries/${failed!.id}/replay`);
    expect(replay.status).toBe(202);
    await hooks.until((got) => got.length === 11);
    const replayed = hooks.received[10]!;
    expect(replayed).toMatchObject({ id: failed!.id, answered: 200 });
    expect(replayed.payload.data.transactionId).toBe(exhausted);
    const after = await waitFor(
      () => deliveries(endpoint.id),
      (items) => items.find((d) => d.id === failed!.id)?.status === 'delivered',
    );
    expect(after.find((d) => d.id === failed!.id)).toMatchObject({ attempts: 1 });
  });

  // Longer than the default: a gateway restarted on a loaded machine can take a minute to be ready.
  it('loses nothing when the gateway is killed mid-delivery: the delivery is sent again with its id', async () => {
    const hooks = await receiver();
    const endpoint = await subscribe(hooks);
    const someone = player('killed');
    hooks.answer = () => 'hold';
    const inFlight = await adjust(someone);
    const queuedBehind = await adjust(someone);
    await hooks.until((got) => got.length === 1);
    const heldId = hooks.received[0]!.id;

    await stack.services['control-plane']!.kill('SIGKILL');
    hooks.answer = () => 200;
    // Committed while no control plane runs: straight to the ledger, as the gateway forwards it.
    const whileDead = player('killed');
    const ledger = await fetch(
      `${stack.services.ledger!.url}/v1/points/adjustments`,
      signedAsGateway({
        method: 'POST',
        url: `${stack.services.ledger!.url}/v1/points/adjustments`,
        headers: internalHeaders(
          {
            organizationId: tenant.organizationId,
            environmentId: tenant.sandbox.environmentId,
            environmentKind: 'Sandbox',
          },
          { id: whileDead },
        ),
        body: { playerId: whileDead, amount: 1 },
      }),
    );
    expect(ledger.status).toBe(200);
    const madeWhileDead = ((await ledger.json()) as { transactionId: string }).transactionId;

    await stack.services['control-plane']!.restart();
    await hooks.until(() => new Set(transactionsOf(hooks, 'acknowledged')).size === 3, 40_000);
    expect([...new Set(transactionsOf(hooks, 'acknowledged'))].sort()).toEqual(
      [inFlight, queuedBehind, madeWhileDead].sort(),
    );
    const resent = hooks.received.filter((r) => r.payload.data.transactionId === inFlight);
    expect(resent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(resent.map((r) => r.id))).toEqual(new Set([heldId]));
    // Duplicates carry the same id: one id per change.
    const idsByTransaction = new Map<string, Set<string>>();
    for (const r of hooks.received) {
      const ids = idsByTransaction.get(r.payload.data.transactionId) ?? new Set();
      ids.add(r.id);
      idsByTransaction.set(r.payload.data.transactionId, ids);
    }
    expect([...idsByTransaction.values()].every((ids) => ids.size === 1)).toBe(true);
    // The player's later change went only after the re-sent one was acknowledged.
    const ofPlayer = hooks.received.filter((r) => r.payload.data.playerId === someone);
    const firstAck = ofPlayer.findIndex((r) => r.answered === 200);
    expect(ofPlayer[firstAck]!.payload.data.transactionId).toBe(inFlight);
    expect(ofPlayer.slice(0, firstAck).every((r) => r.payload.data.transactionId === inFlight)).toBe(true);
    // The receiver records its answer before the gateway records the delivery as delivered.
    const recorded = await waitFor(
      () => deliveries(endpoint.id),
      (list) => list.every((d) => d.status === 'delivered'),
    );
    expect(recorded.map((d) => d.payload.data.transactionId).sort()).toEqual(
      [inFlight, queuedBehind, madeWhileDead].sort(),
    );
  }, 180_000);
});
