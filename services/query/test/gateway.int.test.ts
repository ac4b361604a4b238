import { buildProgram } from '@engage/cli';
import { startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import { eventually } from '@engage/testkit/events.ts';
import { createTenant, type Tenant } from '@engage/testkit/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Endpoint 10 through the gateway: the board comes in with `engage apply` (the gateway hands the
// leaderboards section to query), the events through POST /v1/events.
let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startStack({ services: ['query', 'gateway'] });
  tenant = await createTenant(stack.controlPlaneUrl, undefined, {
    definition: {
      discovery: false,
      events: [{ key: 'scored', properties: { points: { type: 'number', required: true } } }],
      leaderboards: [
        {
          key: 'points',
          name: { defaultLocale: 'en', translations: { en: 'Points', de: 'Punkte' } },
          scoreSource: { type: 'Event', event: 'scored', property: 'points' },
          aggregation: 'Sum',
          topSize: 3,
          decimals: 1,
        },
      ],
    },
  });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** Runs `engage <args>` in-process against the stack's gateway and returns what it printed. */
async function engage(...args: string[]): Promise<string> {
  let output = '';
  const program = buildProgram({
    out: (text) => (output += text),
    env: { ENGAGE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
  });
  await program.parseAsync(['node', 'engage', '--url', stack.controlPlaneUrl, ...args]);
  return output;
}

const settle = (environmentId: string, boardKey: string, token = TEST_ADMIN_TOKEN) =>
  fetch(`${stack.controlPlaneUrl}/admin/v1/environments/${environmentId}/leaderboards/${boardKey}/settle`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('leaderboards through the gateway', () => {
  it('ranks the events sent to POST /v1/events on the board applied with the environment file', async () => {
    const sent = await call('POST', '/v1/events', {
      events: [
        { eventKey: 'scored', playerId: 'ann', properties: { points: 12 } },
        { eventKey: 'scored', playerId: 'bob', properties: { points: 30 } },
        { eventKey: 'scored', playerId: 'ann', properties: { points: 20.5 } },
      ],
    });
    expect(sent.status).toBe(200);
    const view = await eventually('the board to rank both players', async () => {
      const res = await call(
        'GET',
        '/v1/leaderboards/points?PlayerId=ann&LanguageCode=de&Around=1&PlayerIds=bob',
      );
      const body = (await res.json()) as { leaderboard?: { participants: number } };
      return body.leaderboard?.participants === 2 ? body : undefined;
    });
    expect(view).toMatchObject({
      leaderboard: { leaderboardKey: 'points', name: 'Punkte', me: { rank: 1, score: 32.5 } },
      top: [
        { rank: 1, score: 32.5, isMe: true },
        { rank: 2, score: 30, isMe: false },
      ],
      named: [
        { rank: 1, playerId: 'ann', isMe: true },
        { rank: 2, playerId: 'bob', isMe: false },
      ],
      isSettled: false,
    });
    const tooMany = await call('GET', '/v1/leaderboards/points?PlayerId=ann&Top=4');
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      code: 'validation.top',
      instance: '/v1/leaderboards/points',
    });
    const unknown = await call('GET', '/v1/leaderboards/nope?PlayerId=ann');
    expect((await unknown.json()) as unknown).toMatchObject({ status: 404, code: 'leaderboard.not_found' });
  });
});

describe('sandbox settlement on demand through the admin API and the CLI', () => {
  it('settles a Sandbox board (admin API, then `engage leaderboard settle`) and refuses Live', async () => {
    const sent = await call('POST', '/v1/events', {
      events: [
        { eventKey: 'scored', playerId: 'cat', properties: { points: 5 } },
        { eventKey: 'scored', playerId: 'dan', properties: { points: 7 } },
      ],
    });
    expect(sent.status).toBe(200);
    // Both by name: the board already holds the earlier test's players.
    await eventually('both players on the board', async () => {
      const res = await call('GET', '/v1/leaderboards/points?PlayerId=cat&PlayerIds=dan');
      const body = (await res.json()) as { named?: unknown[] | null };
      return body.named?.length === 2 ? body : undefined;
    });

    const settled = await settle(tenant.sandbox.environmentId, 'points');
    expect(settled.status).toBe(200);
    const period = (await settled.json()) as { leaderboardKey: string; participants: number };
    expect(period).toMatchObject({ leaderboardKey: 'points' });
    expect(period.participants).toBeGreaterThanOrEqual(2);
    const previous = await call('GET', '/v1/leaderboards/points?PlayerId=dan&Previous=true');
    expect(await previous.json()).toMatchObject({ isSettled: true, leaderboard: { me: { score: 7 } } });
    const current = await call('GET', '/v1/leaderboards/points?PlayerId=dan');
    expect(await current.json()).toMatchObject({
      isSettled: false,
      leaderboard: { participants: 0, me: null },
    });

    // The CLI settles the (now empty) next period the same way.
    const printed = JSON.parse(
      await engage('leaderboard', 'settle', '--environment', tenant.sandbox.environmentId, 'points'),
    ) as { leaderboardKey: string; participants: number };
    expect(printed).toMatchObject({ leaderboardKey: 'points', participants: 0 });

    const live = await settle(tenant.live.environmentId, 'points');
    expect(live.status).toBe(403);
    expect(live.headers.get('content-type')).toContain('application/problem+json');
    expect(await live.json()).toMatchObject({
      status: 403,
      code: 'leaderboard.settle_sandbox_only',
      instance: `/admin/v1/environments/${tenant.live.environmentId}/leaderboards/points/settle`,
    });
    await expect(
      engage('leaderboard', 'settle', '-e', tenant.live.environmentId, 'points'),
    ).rejects.toMatchObject({ status: 403, code: 'leaderboard.settle_sandbox_only' });

    const unknown = await settle(tenant.sandbox.environmentId, 'nope');
    expect(await unknown.json()).toMatchObject({ status: 404, code: 'leaderboard.not_found' });
    const noToken = await settle(tenant.sandbox.environmentId, 'points', 'wrong');
    expect(noToken.status).toBe(401);
  });
});
