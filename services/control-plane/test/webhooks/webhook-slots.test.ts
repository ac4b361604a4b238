import { describe, expect, it } from 'vitest';
import { DeliverySlots } from '../../src/webhooks/domain/slots.ts';

describe('delivery slots', () => {
  it('counts what each organization and endpoint holds, and forgets those holding none', () => {
    const slots = new DeliverySlots({ total: 4, perOrganization: 2, perEndpoint: 1 });
    const a1 = { organizationId: 'a', webhookId: 'a1' };
    const a2 = { organizationId: 'a', webhookId: 'a2' };
    const b1 = { organizationId: 'b', webhookId: 'b1' };
    slots.take(a1);
    slots.take(a2);
    slots.take(b1);
    expect(slots.free).toBe(1);
    expect(slots.holders()).toEqual({
      organizations: new Map([
        ['a', 2],
        ['b', 1],
      ]),
      endpoints: new Map([
        ['a1', 1],
        ['a2', 1],
        ['b1', 1],
      ]),
    });
    slots.release(a1);
    slots.release(b1);
    expect(slots.free).toBe(3);
    expect(slots.holders()).toEqual({
      organizations: new Map([['a', 1]]),
      endpoints: new Map([['a2', 1]]),
    });
  });
});
