import { AdminClient } from '@engage/cli';
import {
  createTenant,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi } from './support/openapi.ts';

/**
 * Broken object level authorization, tried on purpose: one environment creates players, points,
 * purchases, events and shop items; another environment (of another organization, and the other
 * environment of the same organization) then calls every endpoint with the same player ids, item
 * keys and idempotency keys, and sees nothing of them.
 */
const MARK = `owner-only-${crypto.randomUUID()}`;
const PLAYER = 'shared-player';
const EVENTS = [
  {
    key: 'level_completed',
    active: true,
    properties: { level: { type: 'number' as const, required: true } },
  },
];

describe('a key reaches only its own environment', () => {
  let stack: TestStack;
  let owner: Tenant;
  let stranger: Tenant;
  const secrets: string[] = [MARK];

  const call = async (apiKey: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const json = (answer: { text: string }) => JSON.parse(answer.text) as Record<string, unknown>;

  beforeAll(async () => {
    stack = await startStack();
    [owner, stranger] = await Promise.all([
      createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: { events: EVENTS } }),
      createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: { events: EVENTS } }),
    ]);
    // The shop exists in the owner's Live environment only, not in its Sandbox.
    await new AdminClient({ url: stack.controlPlaneUrl, token: TEST_ADMIN_TOKEN }).applyDefinition(
      owner.live.environmentId,
      {
        marketplace: {
          items: [{ key: 'sword', name: MARK, description: MARK, priceInPoints: 10 }],
          collections: [{ key: 'armory', name: MARK, items: ['sword'] }],
        },
      },
    );
    const key = owner.live.apiKey;
    const adjusted = await call(key, 'POST', '/v1/points/adjustments', {
      playerId: PLAYER,
      amount: 100,
      reason: MARK,
      idempotencyKey: 'adjust-1',
    });
    expect(adjusted.status).toBe(200);
    const bought = await call(key, 'POST', '/v1/marketplace-items/sword/purchases', {
      playerId: PLAYER,
      idempotencyKey: 'buy-1',
    });
    expect(bought.status).toBe(200);
    const sent = await call(key, 'POST', '/v1/events', {
      events: [
        {
          eventKey: 'level_completed',
          playerId: PLAYER,
          idempotencyKey: 'event-1',
          properties: { level: 1 },
        },
      ],
    });
    expect(sent.status).toBe(200);
    const eventId = (json(sent).results as { eventId: string }[])[0]!.eventId;
    secrets.push(String(json(adjusted).transactionId), eventId);
    for (const [field, value] of Object.entries(json(bought))) {
      if (typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value) && field !== 'playerId')
        secrets.push(value);
    }
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const others = () => [
    { name: 'another organization', apiKey: stranger.live.apiKey },
    { name: 'the same organization’s other environment', apiKey: owner.sandbox.apiKey },
  ];

  it('shows another environment’s player with no points, and its idempotency keys as unused', async () => {
    for (const other of others()) {
      const balance = await call(other.apiKey, 'GET', `/v1/points?PlayerId=${PLAYER}`);
      expect(balance.status, other.name).toBe(200);
      expect(json(balance).balance, other.name).toBe(0);

      // The same key is a new adjustment here, neither a replay nor a conflict.
      const adjusted = await call(other.apiKey, 'POST', '/v1/points/adjustments', {
        playerId: PLAYER,
        amount: 7,
        idempotencyKey: 'adjust-1',
      });
      expect(adjusted.status, other.name).toBe(200);
      expect(json(adjusted), other.name).toMatchObject({ amount: 7, balance: 7 });

      // The same event idempotency key is a new event here.
      const sent = await call(other.apiKey, 'POST', '/v1/events', {
        events: [
          {
            eventKey: 'level_completed',
            playerId: PLAYER,
            idempotencyKey: 'event-1',
            properties: { level: 2 },
          },
        ],
      });
      expect(sent.status, other.name).toBe(200);
      expect(json(sent), other.name).toMatchObject({ accepted: 1 });
      expect(secrets, other.name).not.toContain((json(sent).results as { eventId: string }[])[0]!.eventId);
    }
  });

  it('ignores internal headers a caller sends to claim another environment', async () => {
    const forged = await fetch(`${stack.gatewayUrl}/v1/points?PlayerId=${PLAYER}`, {
      headers: {
        authorization: `Bearer ${stranger.live.apiKey}`,
        'x-engage-organization-id': owner.organizationId,
        'x-engage-environment-id': owner.live.environmentId,
        'x-engage-environment-kind': 'Live',
      },
    });
    expect(forged.status).toBe(200);
    expect(((await forged.json()) as { balance: number }).balance).not.toBe(90);
  });

  it('does not find another environment’s shop items, collections or purchases', async () => {
    for (const other of others()) {
      const item = await call(other.apiKey, 'GET', `/v1/marketplace-items/sword?PlayerId=${PLAYER}`);
      expect(item.status, other.name).toBe(404);
      const collection = await call(
        other.apiKey,
        'GET',
        `/v1/marketplace-collections/armory?PlayerId=${PLAYER}`,
      );
      expect(collection.status, other.name).toBe(404);
      const list = await call(other.apiKey, 'GET', `/v1/marketplace-items?PlayerId=${PLAYER}`);
      expect(list.status, other.name).toBe(200);
      expect(list.text, other.name).not.toContain('sword');
      const bought = await call(other.apiKey, 'POST', '/v1/marketplace-items/sword/purchases', {
        playerId: PLAYER,
        idempotencyKey: 'buy-1',
      });
      expect(bought.status, other.name).toBe(404);
    }
  });

  it('answers every endpoint, called with the owner’s ids and keys, with nothing of the owner’s', async () => {
    const { operations } = loadOpenApi(stackConfig().repoRoot);
    const body = {
      playerId: PLAYER,
      idempotencyKey: 'adjust-1',
      amount: 1,
      languageCode: 'en',
      attributes: {},
      events: [
        {
          eventKey: 'level_completed',
          playerId: PLAYER,
          idempotencyKey: 'event-1',
          properties: { level: 3 },
        },
      ],
    };
    const sweep = async (apiKey: string, what: string) => {
      const answers: string[] = [];
      for (const op of operations) {
        const path = op.path.replace(/\{[^}]+\}/g, (param) =>
          param.includes('ollection') ? 'armory' : 'sword',
        );
        const query = op.parameters.some((p) => p.in === 'query')
          ? `?PlayerId=${PLAYER}&PlayerIds=${PLAYER}`
          : '';
        const answer = await call(
          apiKey,
          op.method,
          `${path}${query}`,
          op.method === 'POST' ? body : undefined,
        );
        expect(answer.status, `${what}: ${op.method} ${op.path}`).toBeLessThan(500);
        answers.push(answer.text);
      }
      return answers;
    };
    for (const other of others()) {
      for (const text of await sweep(other.apiKey, other.name)) {
        for (const secret of secrets) expect(text, other.name).not.toContain(secret);
      }
    }
    // The same sweep with the owner's own key does show the owner's data: the probe is not blind.
    expect((await sweep(owner.live.apiKey, 'owner')).some((text) => text.includes(MARK))).toBe(true);
    // The owner's balance moved only by its own calls: 100 credited, 10 spent (its sweep's writes
    // reuse the key adjust-1: a replay of its own adjustment, and a conflict for a purchase).
    const own = await call(owner.live.apiKey, 'GET', `/v1/points?PlayerId=${PLAYER}`);
    expect(json(own).balance).toBe(90);
  });
});
