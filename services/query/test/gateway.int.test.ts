import { startStack, type TestStack } from '@engage/testkit';
import { eventually } from '@engage/testkit/events.ts';
import { createTenant, type Tenant } from '@engage/testkit/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Endpoint 10 through the gateway: the board comes in with `engage apply` (the gateway hands the
// leaderboards section to query), the events through POST /v1/events.
let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startStack({ services: ['query', 'gateway'] });
  tenant = await createTenant(stack.gatewayUrl, undefined, {
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
