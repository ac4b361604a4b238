import { createHttpApp, createLogger } from '@engage/kit';
import { describe, expect, it } from 'vitest';
import {
  type OrganizationAdmission,
  type OrganizationLimit,
  registerOrganizationLimit,
} from '../../src/application/organization-limit/organization-limit.ts';
import '../../src/http/api-key-scope.ts';

/** A limit that answers what the test says and records what happened. */
function scriptedLimit(outcome: 'admitted' | 'full') {
  const calls = { acquired: [] as string[], released: 0 };
  const limit: OrganizationLimit = {
    async acquire(organizationId): Promise<OrganizationAdmission> {
      calls.acquired.push(organizationId);
      if (outcome === 'full') return { outcome: 'refused', reason: 'full' };
      const release = () => {
        calls.released += 1;
      };
      return { outcome: 'admitted', inUse: 1, mode: 'shared', release };
    },
  };
  return { limit, calls };
}

function appWith(limit: OrganizationLimit) {
  const app = createHttpApp({ log: createLogger('test', 'silent') });
  registerOrganizationLimit(app, limit);
  let handled = 0;
  app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      if (request.headers.authorization) {
        request.environment = { organizationId: 'org-1', environmentId: 'env-1', environmentKind: 'Sandbox' };
      }
    });
    scope.post('/v1/things', async () => {
      handled += 1;
      return { ok: true };
    });
  });
  return { app, handled: () => handled };
}

describe('the organization limit hook', () => {
  it('takes one slot per authenticated request, after authentication, and gives it back', async () => {
    const { limit, calls } = scriptedLimit('admitted');
    const { app, handled } = appWith(limit);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { authorization: 'key' },
      payload: { events: Array.from({ length: 1000 }, () => ({})) },
    });
    expect(res.statusCode).toBe(200);
    expect(calls.acquired).toEqual(['org-1']);
    expect(calls.released).toBe(1);
    expect(handled()).toBe(1);
  });

  it('refuses with 429 tenant.too_many_concurrent_requests and Retry-After, before the handler runs', async () => {
    const { limit } = scriptedLimit('full');
    const { app, handled } = appWith(limit);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { authorization: 'key' },
      payload: {},
    });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toMatchObject({ status: 429, code: 'tenant.too_many_concurrent_requests' });
    expect(handled()).toBe(0);
  });

  it('leaves requests without a project key (admin, health, refused keys) alone', async () => {
    const { limit, calls } = scriptedLimit('full');
    const { app } = appWith(limit);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/v1/things', payload: {} })).statusCode).toBe(200);
    expect(calls.acquired).toEqual([]);
  });
});
