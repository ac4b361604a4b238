import {
  eventually,
  fetchAsGateway,
  internalHeaders,
  startStack,
  TEST_ADMIN_TOKEN,
  type TestStack,
} from '@engage/testkit';
import { createTenant } from '@engage/testkit/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Walks real requests through all four services, each its own process, on the real Kafka,
 * Postgres and Redis: an event batch to the consumers and a points adjustment to the ledger.
 */
describe('every hop, end to end', () => {
  let stack: TestStack;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  const auth = () => ({
    authorization: `Bearer ${tenant.sandbox.apiKey}`,
    'content-type': 'application/json',
  });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: auth(),
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startStack();
    tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
    const defined = await fetch(
      `${stack.controlPlaneUrl}/admin/v1/environments/${tenant.sandbox.environmentId}/definition`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          discovery: false,
          events: [
            {
              key: 'level_completed',
              active: true,
              properties: { level: { type: 'number', required: true } },
            },
          ],
        }),
      },
    );
    expect(defined.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('accepts an event batch and both consumers apply each accepted event once', async () => {
    const res = await call('POST', '/v1/events', {
      events: [
        { eventKey: 'level_completed', playerId: 'walker-1', properties: { level: 1 } },
        { eventKey: 'level_completed', playerId: 'walker-1', properties: { level: 2.5 } },
        { eventKey: 'level_completed', playerId: 'walker-2', properties: { level: 1 } },
        { eventKey: 'no_such_event', playerId: 'walker-2', properties: {} },
      ],
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as BatchResult;
    expect(result).toMatchObject({ accepted: 3, rejected: 1 });
    expect(result.results.map((r) => r.accepted)).toEqual([true, true, true, false]);
    expect(result.results[3]).toMatchObject({
      index: 3,
      eventId: null,
      errors: [{ code: 'event.not_found' }],
    });

    const env = {
      organizationId: tenant.organizationId,
      environmentId: tenant.sandbox.environmentId,
      environmentKind: 'Sandbox' as const,
    };
    const read = async (service: 'rules' | 'query', path: string) => {
      const r = await fetchAsGateway(`${stack.services[service]!.url}${path}`, {
        headers: internalHeaders(env),
      });
      return r.json() as Promise<Record<string, unknown>>;
    };
    const activity = await eventually('rules to apply both events', async () => {
      const body = await read('rules', '/internal/v1/players/walker-1/activity');
      return body.eventsApplied === 2 ? body : undefined;
    });
    expect(activity.eventsApplied).toBe(2);
    const totals = await eventually('query to count both events', async () => {
      const body = (await read('query', '/internal/v1/players/walker-1/event-totals')) as {
        events?: Totals[];
      };
      return body.events?.[0]?.count === 2 ? body.events : undefined;
    });
    expect(totals).toEqual([{ eventKey: 'level_completed', count: 2, sums: { level: '3.5' } }]);
  });

  it('credits points through the ledger, replays a keyed adjustment and refuses an overdraft', async () => {
    const credit = await call('POST', '/v1/points/adjustments', {
      playerId: 'walker-1',
      amount: 100,
      reason: 'welcome bonus',
      idempotencyKey: 'welcome-walker-1',
    });
    expect(credit.status).toBe(200);
    const first = (await credit.json()) as Record<string, unknown>;
    expect(first).toMatchObject({ amount: 100, balance: 100 });

    const replay = await call('POST', '/v1/points/adjustments', {
      playerId: 'walker-1',
      amount: 100,
      reason: 'welcome bonus',
      idempotencyKey: 'welcome-walker-1',
    });
    expect(await replay.json()).toEqual(first);

    const overdraft = await call('POST', '/v1/points/adjustments', { playerId: 'walker-1', amount: -101 });
    expect(overdraft.status).toBe(409);
    expect(await overdraft.json()).toMatchObject({ code: 'points.insufficient_balance' });

    const balance = await call('GET', '/v1/points?PlayerId=walker-1');
    expect(await balance.json()).toMatchObject({ playerId: 'walker-1', balance: 100 });
  });

  it('answers every /v1 route from its owning service', async () => {
    const expectations: [string, string, unknown, number, string | unknown[]][] = [
      ['POST', '/v1/missions', { playerId: 'walker-1' }, 200, []],
      ['POST', '/v1/missions/none', { playerId: 'walker-1' }, 404, 'mission.not_found'],
      ['POST', '/v1/mission-collections/none', { playerId: 'walker-1' }, 404, 'mission_collection.not_found'],
      ['GET', '/v1/marketplace-items?PlayerId=walker-1', undefined, 200, []],
      ['GET', '/v1/marketplace-items/none?PlayerId=walker-1', undefined, 404, 'marketplace_item.not_found'],
      ['GET', '/v1/leaderboards/none?PlayerId=walker-1', undefined, 404, 'leaderboard.not_found'],
      ['GET', '/v1/streaks?PlayerId=walker-1', undefined, 200, []],
      ['GET', '/v1/streaks/none?PlayerId=walker-1', undefined, 404, 'streak.not_found'],
    ];
    for (const [method, path, body, status, expected] of expectations) {
      const res = await call(method, path, body);
      expect(res.status, path).toBe(status);
      const json = await res.json();
      if (Array.isArray(expected)) expect(json, path).toEqual(expected);
      else expect(json, path).toMatchObject({ code: expected });
    }
  });

  it('refuses a request without a valid key', async () => {
    const res = await fetch(`${stack.gatewayUrl}/v1/points?PlayerId=walker-1`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'auth.api_key_invalid' });
  });
});

interface BatchResult {
  accepted: number;
  rejected: number;
  results: { index: number; accepted: boolean; eventId: string | null; errors: { code: string }[] }[];
}

interface Totals {
  eventKey: string;
  count: number;
  sums: Record<string, string>;
}
