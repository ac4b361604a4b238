import { WEBHOOK_EVENT_TYPES, webhookPayloadSchema } from '@engage/contracts/http/webhooks.ts';
import { createTenant, startStack, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asAdminToken } from '../operators/support.ts';
import { Receiver } from './receiver.ts';

// Every event type reaches a subscribed receiver through the whole stack: events complete a mission
// and reach a streak milestone (rules), a purchase and an adjustment move points (ledger), and an
// on-demand settlement ranks the players (query). Streak breaks need days to pass: their mapping is
// unit-tested (webhook-domain.test.ts).
let stack: TestStack;
let tenant: Tenant;
let hooks: Receiver;

beforeAll(async () => {
  stack = await startStack({
    webhooks: true,
    serviceEnv: { 'control-plane': { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' } },
  });
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      discovery: false,
      events: [{ key: 'scored', properties: { points: { type: 'number', required: true } } }],
      missions: [
        {
          key: 'first-score',
          name: 'First score',
          objectives: [{ key: 'score', event: 'scored', target: 1 }],
          rewards: [{ points: 50 }],
        },
      ],
      streaks: [
        { key: 'daily', name: 'Daily', events: [{ event: 'scored' }], milestones: [{ threshold: 1 }] },
      ],
      marketplace: {
        items: [
          { key: 'badge', name: 'Badge', priceInPoints: 10 },
          {
            key: 'gift',
            name: 'Daily gift',
            priceInPoints: 0,
            contents: [{ catalogItemKey: 'gem', value: { type: 'number', value: 1 } }],
          },
        ],
      },
      leaderboards: [
        {
          key: 'points',
          name: 'Points',
          scoreSource: { type: 'Event', event: 'scored', property: 'points' },
          aggregation: 'Sum',
          topSize: 10,
        },
      ],
    },
  });
  hooks = await Receiver.start();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await hooks?.down();
});

const v1 = async (method: string, path: string, body: unknown) => {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${tenant.sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json() as Promise<Record<string, unknown>>;
};

async function eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('sends each event type with the documented payload, signed', async () => {
  const created = await asAdminToken(
    stack.controlPlaneUrl,
    'POST',
    `/environments/${tenant.sandbox.environmentId}/webhooks`,
    { url: hooks.url, eventTypes: [...WEBHOOK_EVENT_TYPES], rankThreshold: 1 },
  );
  expect(created.status).toBe(201);
  const players = ['ann', 'bob'];
  for (const playerId of players) await v1('POST', '/v1/missions', { playerId });
  await v1('POST', '/v1/events', {
    events: [
      { eventKey: 'scored', playerId: 'ann', properties: { points: 9 } },
      { eventKey: 'scored', playerId: 'bob', properties: { points: 4 } },
    ],
  });
  // The mission's reward (50 points) pays for the badge once the ledger has credited it.
  await eventually('the reward credited', async () => {
    const response = await fetch(`${stack.gatewayUrl}/v1/points?PlayerId=ann`, {
      headers: { authorization: `Bearer ${tenant.sandbox.apiKey}` },
    });
    const balance = ((await response.json()) as { balance?: number }).balance;
    return balance === 50 ? balance : undefined;
  });
  const purchase = await v1('POST', '/v1/marketplace-items/badge/purchases', { playerId: 'ann' });
  const gift = await v1('POST', '/v1/marketplace-items/gift/purchases', { playerId: 'bob' });
  const adjustment = await v1('POST', '/v1/points/adjustments', {
    playerId: 'bob',
    amount: -5,
    reason: 'fix',
  });
  await eventually('both on the board', async () => {
    const response = await fetch(`${stack.gatewayUrl}/v1/leaderboards/points?PlayerId=ann&PlayerIds=bob`, {
      headers: { authorization: `Bearer ${tenant.sandbox.apiKey}` },
    });
    const body = (await response.json()) as { named?: unknown[] | null };
    return body.named?.length === 2 ? true : undefined;
  });
  const settled = await asAdminToken(
    stack.controlPlaneUrl,
    'POST',
    `/admin/v1/environments/${tenant.sandbox.environmentId}/leaderboards/points/settle`.replace(
      '/admin/v1',
      '',
    ),
  );
  expect(settled.status).toBe(200);

  // Two players each: a mission, a milestone, a settled standing, a purchase (bob's free); one
  // adjustment, one top-1 rank.
  const expected = {
    'leaderboard.period_settled': 2,
    'leaderboard.rank_reached': 1,
    'milestone.reached': 2,
    'mission.completed': 2,
    'points.adjusted': 1,
    'purchase.made': 2,
  };
  const countsByType = () => {
    const counts: Record<string, number> = {};
    for (const r of hooks.received) counts[r.payload.type] = (counts[r.payload.type] ?? 0) + 1;
    return counts;
  };
  await hooks.until(
    () => Object.entries(expected).every(([type, count]) => (countsByType()[type] ?? 0) >= count),
    30_000,
  );
  expect(countsByType()).toEqual(expected);
  const byType = (type: string) =>
    hooks.received.filter((r) => r.payload.type === type).map((r) => r.payload);
  for (const request of hooks.received) {
    new Webhook(created.body.secret).verify(request.body, {
      'webhook-id': request.id,
      'webhook-timestamp': request.timestamp,
      'webhook-signature': request.signature,
    });
    const { type } = request.payload;
    expect(webhookPayloadSchema(type).strict().parse(request.payload)).toEqual(request.payload);
    expect(request.payload).toMatchObject({ id: request.id, environmentId: tenant.sandbox.environmentId });
  }
  expect(
    byType('mission.completed')
      .map((p) => p.data.playerId)
      .sort(),
  ).toEqual(players);
  expect(byType('mission.completed')[0].data).toMatchObject({
    missionKey: 'first-score',
    occurrenceNumber: 1,
  });
  expect(
    byType('milestone.reached')
      .map((p) => p.data)
      .sort((a, b) => a.playerId.localeCompare(b.playerId)),
  ).toEqual(
    players.map((playerId) => ({
      playerId,
      streakKey: 'daily',
      runNumber: 1,
      milestoneThreshold: 1,
      reachedAt: expect.any(String),
    })),
  );
  expect(
    byType('purchase.made')
      .map((p) => p.data)
      .sort((a, b) => a.playerId.localeCompare(b.playerId)),
  ).toEqual([
    {
      playerId: 'ann',
      purchaseId: purchase.purchaseId,
      transactionId: purchase.transactionId,
      itemKey: 'badge',
      occurrenceNumber: 1,
      pointsSpent: 10,
      balanceAfter: 40,
      contents: [],
      purchasedAt: expect.any(String),
    },
    {
      playerId: 'bob',
      purchaseId: gift.purchaseId,
      transactionId: null,
      itemKey: 'gift',
      occurrenceNumber: 1,
      pointsSpent: 0,
      balanceAfter: expect.any(Number),
      contents: [{ catalogItemKey: 'gem', value: 1 }],
      purchasedAt: expect.any(String),
    },
  ]);
  expect(byType('points.adjusted').map((p) => p.data)).toEqual([
    {
      playerId: 'bob',
      transactionId: adjustment.transactionId,
      amount: -5,
      balanceAfter: 45,
      reason: 'fix',
      adjustedAt: expect.any(String),
    },
  ]);
  const standings = byType('leaderboard.period_settled').map((p) => p.data);
  expect(standings.map((d) => [d.playerId, d.finalRank, Number(d.score), d.leagueMove]).sort()).toEqual([
    ['ann', 1, 9, null],
    ['bob', 2, 4, null],
  ]);
  expect(byType('leaderboard.rank_reached').map((p) => p.data)).toEqual([
    expect.objectContaining({ playerId: 'ann', leaderboardKey: 'points', rank: 1, rankThreshold: 1 }),
  ]);
  // Reward credits and purchase charges are not adjustments: nothing else arrived.
  expect(hooks.received).toHaveLength(10);
});
