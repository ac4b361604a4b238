import type { Condition } from '@engage/contracts';
import { createTenant, startStack, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let stack: TestStack;
let tenant: Tenant;

/** A condition value as JSON carries it: a double, whose shortest text is 12345678901234567000. */
const THRESHOLD = Number('12345678901234567000');
const item = (key: string, eligibility: Condition) => ({
  key,
  name: `Item ${key}`,
  priceInPoints: 10,
  eligibility,
  hideWhenNotEligible: true,
});

beforeAll(async () => {
  stack = await startStack({ services: ['ledger', 'gateway'] });
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      playerAttributes: [{ key: 'wealth', type: 'number' }],
      marketplace: {
        items: [
          item('above', { attribute: 'wealth', op: 'gt', value: THRESHOLD }),
          item('at-most', { attribute: 'wealth', op: 'lte', value: THRESHOLD }),
          item('exactly', { attribute: 'wealth', op: 'eq', value: THRESHOLD }),
        ],
        collections: [],
      },
    },
  });
}, 180_000);
afterAll(() => stack?.stop());

async function visibleItems(playerId: string): Promise<string[]> {
  const res = await fetch(`${stack.gatewayUrl}/v1/marketplace-items?PlayerId=${playerId}`, {
    headers: { authorization: tenant.live.apiKey },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { marketplaceItemKey: string }[]).map((i) => i.marketplaceItemKey).sort();
}

async function setWealth(playerId: string, wealth: string) {
  const res = await fetch(`${stack.gatewayUrl}/v1/players/attributes`, {
    method: 'POST',
    headers: { authorization: tenant.live.apiKey, 'content-type': 'application/json' },
    body: `{"playerId":"${playerId}","attributes":{"wealth":${wealth}}}`,
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain(`"wealth":${wealth}`);
}

describe('a number attribute set through POST /v1/players/attributes', () => {
  it("reaches the ledger's eligibility check exactly, beyond what a double holds", async () => {
    // As doubles, all three values equal the threshold; as decimals only the middle one does.
    const cases: [string, string[]][] = [
      ['12345678901234567000.00000001', ['above']],
      ['12345678901234567000', ['at-most', 'exactly']],
      ['12345678901234566999.99999999', ['at-most']],
    ];
    for (const [wealth, expected] of cases) {
      const playerId = `p-${crypto.randomUUID()}`;
      await setWealth(playerId, wealth);
      expect(await visibleItems(playerId), wealth).toEqual(expected);
    }
  });
});
