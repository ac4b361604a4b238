import { createTenant, startStack, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, startGateway } from './support.ts';

/**
 * Two gateway replicas in front of a real ledger: an attribute set through one decides, through the
 * other, which shop items the player sees as soon as the change is announced (no expiry to wait out).
 */
let stack: TestStack;
let one: InProcessGateway;
let two: InProcessGateway;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startStack({ services: ['ledger'] });
  const upstreams = { ledger: stack.services.ledger!.url };
  one = await startGateway({ upstreams });
  // On the same topics: the second learns the keys the first's admin API creates.
  two = await startGateway({ upstreams, topicPrefix: one.topicPrefix });
  tenant = await createTenant(one.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      playerAttributes: [{ key: 'tier', type: 'string' }],
      marketplace: {
        items: [
          {
            key: 'gold-only',
            name: 'Gold only',
            priceInPoints: 10,
            eligibility: { attribute: 'tier', op: 'eq', value: 'gold' },
            hideWhenNotEligible: true,
          },
        ],
        collections: [],
      },
    },
  });
}, 180_000);
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
  await stack?.stop();
});

async function visibleItems(gateway: InProcessGateway, playerId: string): Promise<string[]> {
  const res = await fetch(`${gateway.url}/v1/marketplace-items?PlayerId=${playerId}`, {
    headers: bearer(tenant.live.apiKey),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { marketplaceItemKey: string }[]).map((i) => i.marketplaceItemKey);
}

async function setTier(gateway: InProcessGateway, playerId: string, tier: string) {
  const res = await gateway.app.inject({
    method: 'POST',
    url: '/v1/players/attributes',
    headers: bearer(tenant.live.apiKey),
    payload: { playerId, attributes: { tier } },
  });
  expect(res.statusCode).toBe(200);
}

describe('an attribute changed through one replica', () => {
  it("decides the other replica's next eligibility check once announced", async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    await setTier(one, playerId, 'silver');
    expect(await visibleItems(two, playerId)).toEqual([]);
    const known = () => two.players.knownOf(tenant.live.environmentId)(playerId);
    expect(known()?.attributes).toEqual({ tier: 'silver' });

    await setTier(one, playerId, 'gold');
    // The notification drops the other replica's copy moments after the commit.
    await expect.poll(known, { timeout: 5_000, interval: 10 }).toBeUndefined();
    expect(await visibleItems(two, playerId)).toEqual(['gold-only']);
    expect(known()?.attributes).toEqual({ tier: 'gold' });
  });
});
