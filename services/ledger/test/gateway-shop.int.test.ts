import { createTenant, startStack, type Tenant, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startStack({ services: ['ledger', 'gateway'] });
  tenant = await createTenant(stack.controlPlaneUrl, undefined, {
    definition: {
      marketplace: {
        items: [
          {
            key: 'crown',
            name: { defaultLocale: 'en', translations: { en: 'Crown', fr: 'Couronne' } },
            priceInPoints: 25,
            stock: 10,
            contents: [{ catalogItemKey: 'crown', value: { type: 'number', value: 1 } }],
          },
        ],
        collections: [{ key: 'royal', name: 'Royal', items: ['crown'] }],
      },
    },
  });
}, 120_000);
afterAll(() => stack?.stop());

async function api(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & unknown[] };
}

describe('the shop through the gateway', () => {
  it('applies the marketplace section with engage apply, lists, sells and records the grant', async () => {
    const playerId = `gw-${crypto.randomUUID()}`;
    const first = await api('POST', '/v1/marketplace-items/crown/purchases', {
      playerId,
      idempotencyKey: 'k1',
    });
    expect({ status: first.status, code: first.body.code }).toEqual({
      status: 404,
      code: 'player.not_found',
    });

    expect((await api('POST', '/v1/points/adjustments', { playerId, amount: 40 })).status).toBe(200);
    const listed = await api('GET', `/v1/marketplace-items?PlayerId=${playerId}&LanguageCode=fr`);
    expect(listed.body).toMatchObject([
      { marketplaceItemKey: 'crown', name: 'Couronne', isPurchasable: true, remainingStock: 10 },
    ]);
    const bought = await api('POST', '/v1/marketplace-items/crown/purchases', {
      playerId,
      idempotencyKey: 'k1',
    });
    expect(bought).toMatchObject({ status: 200, body: { priceInPoints: 25, balance: 15 } });
    const collection = await api('GET', `/v1/marketplace-collections/royal?PlayerId=${playerId}`);
    expect(collection.body).toMatchObject({
      key: 'royal',
      items: [{ marketplaceItemKey: 'crown', remainingStock: 9 }],
    });
    const items = await api('GET', `/v1/player-items?PlayerId=${playerId}`);
    expect(items.body).toMatchObject([
      { catalogItemKey: 'crown', source: 'Purchase', sourceRef: bought.body.purchaseId },
    ]);
  });
});
