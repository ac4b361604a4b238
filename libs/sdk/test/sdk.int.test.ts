import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import {
  createTenant,
  eventually,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngageClient, EngageProblem, type EventItem } from '../src/index.ts';
import { FaultProxy } from './support/fault-proxy.ts';
import { FIRST_LEVEL } from './support/first-level.ts';

/** The SDK against the real stack, through a loopback hop that injects the faults it must survive. */
let stack: TestStack;
let tenant: Tenant;
let proxy: FaultProxy;
let client: EngageClient;

const definition = {
  ...FIRST_LEVEL,
  marketplace: { items: [{ key: 'gem-pack', name: 'Gem pack', priceInPoints: 40 }] },
} satisfies EnvironmentFileInput;

beforeAll(async () => {
  stack = await startStack();
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
  proxy = new FaultProxy(stack.gatewayUrl);
  await proxy.listen();
  client = new EngageClient({
    apiKey: tenant.sandbox.apiKey,
    baseUrl: proxy.url,
    retries: { initialDelayMs: 20 },
  });
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

const balanceOf = async (playerId: string) => (await client.points.balance({ PlayerId: playerId })).balance;

describe('the event queue', () => {
  it('sends batches of at most 1,000 in order, bounded, and flushes everything on close', async () => {
    const playerId = `queue-${crypto.randomUUID()}`;
    await client.missions.list({ playerId });
    const answered: number[] = [];
    const queue = client.events.queue({
      flushIntervalMs: 60_000,
      maxBuffered: 1_500,
      onResult: (events, result) => {
        expect(result.accepted).toBe(events.length);
        answered.push(events.length);
      },
    });
    const sentBefore = proxy.requestsTo('/v1/events').length;
    let mostBuffered = 0;
    for (let level = 1; level <= 2_500; level++) {
      await queue.add({ eventKey: 'level_completed', playerId, properties: { level } });
      mostBuffered = Math.max(mostBuffered, queue.buffered);
    }
    await queue.close();
    expect(mostBuffered).toBeLessThanOrEqual(1_500);
    expect(answered).toEqual([1_000, 1_000, 500]);
    const batches = proxy
      .requestsTo('/v1/events')
      .slice(sentBefore)
      .map((r) => (JSON.parse(r.body) as { events: EventItem[] }).events);
    expect(batches.flat().map((e) => e.properties?.level)).toEqual(
      Array.from({ length: 2_500 }, (_, i) => i + 1),
    );
    expect(batches.flat().every((e) => typeof e.idempotencyKey === 'string')).toBe(true);
    // The mission completed and its reward arrived.
    await eventually('the mission reward', async () =>
      (await balanceOf(playerId)) === 5 ? true : undefined,
    );
    await expect(queue.add({ eventKey: 'level_completed', playerId })).rejects.toThrow('closed');
  });

  it('resends a batch whose answer was lost with the same keys: each event is accepted once', async () => {
    const playerId = `lost-${crypto.randomUUID()}`;
    await client.missions.list({ playerId });
    proxy.failNext('/v1/events', { kind: 'lose-answer' });
    const result = await client.events.send([
      { eventKey: 'level_completed', playerId, properties: { level: 1 } },
    ]);
    expect(result.accepted).toBe(1);
    const [first, second] = proxy.requestsTo('/v1/events').slice(-2);
    expect(JSON.parse(second!.body)).toEqual(JSON.parse(first!.body));
    await eventually('the reward, once', async () => ((await balanceOf(playerId)) === 5 ? true : undefined));
  });
});

describe('writes and the retry rules', () => {
  it('retries an adjustment whose answer was lost with the same key, so it applies once', async () => {
    const playerId = `adjust-${crypto.randomUUID()}`;
    proxy.failNext('/v1/points/adjustments', { kind: 'lose-answer' }, { kind: 'lose-answer' });
    const answer = await client.points.adjust({ playerId, amount: 30, reason: 'welcome' });
    expect(answer.balance).toBe(30);
    const sent = proxy
      .requestsTo('/v1/points/adjustments')
      .slice(-3)
      .map((r) => JSON.parse(r.body));
    expect(new Set(sent.map((b) => b.idempotencyKey)).size).toBe(1);
    expect(await balanceOf(playerId)).toBe(30);
  });

  it('waits for Retry-After on a 429 and sends a 409 concurrent_update again', async () => {
    const playerId = `busy-${crypto.randomUUID()}`;
    const before = proxy.requestsTo('/v1/points/adjustments').length;
    proxy.failNext(
      '/v1/points/adjustments',
      {
        kind: 'answer',
        status: 429,
        headers: { 'retry-after': '1' },
        body: { status: 429, code: 'tenant.too_many_concurrent_requests', errors: [] },
      },
      { kind: 'answer', status: 409, body: { status: 409, code: 'points.concurrent_update', errors: [] } },
    );
    expect((await client.points.adjust({ playerId, amount: 7 })).balance).toBe(7);
    expect(proxy.requestsTo('/v1/points/adjustments').length - before).toBe(3);
  });

  it('throws a refusal at once as an EngageProblem with its code, never sending it again', async () => {
    const playerId = `refused-${crypto.randomUUID()}`;
    const before = proxy.requestsTo('/v1/points/adjustments').length;
    const zero = await client.points.adjust({ playerId, amount: 0 }).catch((err: unknown) => err);
    expect(zero).toBeInstanceOf(EngageProblem);
    expect([(zero as EngageProblem).status, (zero as EngageProblem).code]).toEqual([
      400,
      'points_adjustment.amount_zero',
    ]);
    const poor = await client.shop.purchase('gem-pack', { playerId }).catch((err: unknown) => err);
    expect([(poor as EngageProblem).status, (poor as EngageProblem).code]).toEqual([
      409,
      'points.insufficient_balance',
    ]);
    expect(proxy.requestsTo('/v1/points/adjustments').length - before).toBe(1);
    expect(proxy.requestsTo('/v1/marketplace-items/gem-pack/purchases')).toHaveLength(1);
  });

  it('buys once when the purchase answer is lost, and reads the typed reads', async () => {
    const playerId = `buyer-${crypto.randomUUID()}`;
    await client.points.adjust({ playerId, amount: 100 });
    proxy.failNext('/v1/marketplace-items/gem-pack/purchases', { kind: 'lose-answer' });
    await client.shop.purchase('gem-pack', { playerId, expectedPriceInPoints: 40 });
    expect(await balanceOf(playerId)).toBe(60);
    const items = await client.shop.items({ PlayerId: playerId });
    expect(items.map((i) => i.marketplaceItemKey)).toContain('gem-pack');
    const missions = await client.missions.list({ playerId });
    expect(missions.map((m) => m.missionKey)).toEqual(['first-level']);
  });
});
