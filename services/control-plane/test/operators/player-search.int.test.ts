import { createTenant, startStack, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdminToken, operatorWithRole } from './support.ts';

/**
 * GET /admin/v1/environments/{environmentId}/players: players by id prefix and attribute value, a
 * page at a time: the control plane asks the gateway, which keeps the players.
 */

let stack: TestStack;
let tenant: Tenant;
/** This file's own players: every id starts with it, so other files' players never match. */
const run = `search-${crypto.randomUUID().slice(0, 8)}`;

const definition = {
  playerAttributes: [
    { key: 'tier', type: 'string' },
    { key: 'level', type: 'number' },
    { key: 'vip', type: 'boolean' },
  ],
};

async function setAttributes(playerId: string, attributes: Record<string, unknown>) {
  const response = await fetch(`${stack.gatewayUrl}/v1/players/attributes`, {
    method: 'POST',
    headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ playerId, attributes }),
  });
  expect(response.status, await response.text()).toBe(200);
}

const search = (query: string, environmentId = tenant.sandbox.environmentId) =>
  asAdminToken(stack.controlPlaneUrl, 'GET', `/environments/${environmentId}/players?${query}`);

const ids = (answer: { body: { players: { playerId: string }[] } }) =>
  answer.body.players.map((p) => p.playerId);

beforeAll(async () => {
  stack = await startStack({ services: ['gateway'] });
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: definition as never });
  await setAttributes(`${run}-ada`, { tier: 'gold', level: 12.5, vip: true });
  await setAttributes(`${run}-alan`, { tier: 'silver', level: 3 });
  await setAttributes(`${run}-grace`, { tier: 'gold', level: 7 });
  await setAttributes(`other-${run}`, { tier: 'gold' });
}, 120_000);

afterAll(() => stack?.stop());

describe('searching an environment’s players', () => {
  it('finds players by the start of their id, in order of id, with their attributes', async () => {
    const answer = await search(`idPrefix=${run}-a`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      players: [
        { playerId: `${run}-ada`, timeZone: null, attributes: { tier: 'gold', level: 12.5, vip: true } },
        { playerId: `${run}-alan`, timeZone: null, attributes: { tier: 'silver', level: 3 } },
      ],
      nextCursor: null,
    });
  });

  it('finds players by an attribute value: text, any spelling of a number, a boolean', async () => {
    expect(ids(await search(`idPrefix=${run}&attribute=tier&value=gold`))).toEqual([
      `${run}-ada`,
      `${run}-grace`,
    ]);
    expect(ids(await search(`idPrefix=${run}&attribute=level&value=12.50`))).toEqual([`${run}-ada`]);
    expect(ids(await search(`attribute=vip&value=true&idPrefix=${run}`))).toEqual([`${run}-ada`]);
    expect(ids(await search(`idPrefix=${run}&attribute=tier&value=bronze`))).toEqual([]);
  });

  it('pages with the cursor of the previous page', async () => {
    const first = await search(`idPrefix=${run}&limit=2`);
    expect(ids(first)).toEqual([`${run}-ada`, `${run}-alan`]);
    expect(first.body.nextCursor).toBe(`${run}-alan`);
    const second = await search(`idPrefix=${run}&limit=2&after=${encodeURIComponent(first.body.nextCursor)}`);
    expect(ids(second)).toEqual([`${run}-grace`]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('sees only the environment named: the Live environment has none of these players', async () => {
    const answer = await search(`idPrefix=${run}`, tenant.live.environmentId);
    expect(answer.body).toEqual({ players: [], nextCursor: null });
  });

  it('refuses an attribute without a value, and a limit out of range, with a problem document', async () => {
    const alone = await search('attribute=tier');
    expect(alone.status).toBe(400);
    expect(alone.headers.get('content-type')).toContain('application/problem+json');
    expect(alone.body).toMatchObject({
      code: 'validation.value',
      errors: [{ meta: { path: 'value' } }],
    });
    const tooMany = await search('limit=1000');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: 'validation.limit', errors: [{ meta: { path: 'limit' } }] });
  });

  it('answers 404 for an unknown environment; refuses another organization, lets a viewer read', async () => {
    const unknown = await search('limit=1', crypto.randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('environment.not_found');
    const other = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
    const outsider = await operatorWithRole(stack.controlPlaneUrl, other.organizationId, 'owner');
    const refused = await outsider.call('GET', `/environments/${tenant.sandbox.environmentId}/players`);
    expect([refused.status, refused.body.code]).toEqual([403, 'admin.forbidden']);
    const viewer = await operatorWithRole(stack.controlPlaneUrl, tenant.organizationId, 'viewer');
    const allowed = await viewer.call(
      'GET',
      `/environments/${tenant.sandbox.environmentId}/players?idPrefix=${run}`,
    );
    expect(allowed.status).toBe(200);
    expect(allowed.body.players).toHaveLength(3);
  });
});
