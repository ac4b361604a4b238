import type { AuditEntry } from '@engage/contracts/http/operators.ts';
import {
  createTenant,
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  TEST_ADMIN_TOKEN,
  type Tenant,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdminToken, type Console, operatorWithRole } from './support.ts';

/** An environment's applied versions, and the audit log read newest first or for one environment. */

let controlPlane: ServiceProcess;
let tenant: Tenant;
let designer: Console;
let viewer: Console;

beforeAll(async () => {
  controlPlane = await spawnService(stackConfig().repoRoot, 'control-plane', serviceEnv(uniqueTopicPrefix()));
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  designer = await operatorWithRole(controlPlane.url, tenant.organizationId, 'designer');
  viewer = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
}, 120_000);

afterAll(() => controlPlane?.stop());

const definition = (environmentId: string) => `/environments/${environmentId}/definition`;

/** Every page of a listing, following `nextCursor` with pages of `limit` entries. */
async function allPages(caller: Console, path: string, limit: number): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let after: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await caller.call(
      'GET',
      `${path}${separator}limit=${limit}${after ? `&after=${after}` : ''}`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.entries.length).toBeLessThanOrEqual(limit);
    entries.push(...answer.body.entries);
    after = answer.body.nextCursor;
  } while (after);
  return entries;
}

const asToken: Console = {
  cookie: '',
  session: undefined as never,
  call: (method, path, body) => asAdminToken(controlPlane.url, method, path, body),
};

describe('definition history', () => {
  let first: unknown;
  let second: unknown;

  it('lists the applies of one environment newest first, with who, when and the difference', async () => {
    const sandbox = definition(tenant.sandbox.environmentId);
    first = (await designer.call('PUT', sandbox, { version: 1, events: [{ key: 'chest_opened' }] })).body;
    // A dry run, a no-op apply, another environment's apply and a key are not versions of this file.
    await designer.call('PUT', `${sandbox}?dryRun=true`, { version: 1, events: [{ key: 'never' }] });
    await designer.call('PUT', sandbox, { version: 1, events: [{ key: 'chest_opened' }] });
    await designer.call('PUT', definition(tenant.live.environmentId), { events: [{ key: 'live_only' }] });
    await asAdminToken(
      controlPlane.url,
      'POST',
      `/environments/${tenant.sandbox.environmentId}/api-keys`,
      {},
    );
    second = (
      await designer.call('PUT', sandbox, {
        events: [{ key: 'chest_opened' }, { key: 'boss_defeated' }],
      })
    ).body;

    const history = await allPages(viewer, `${sandbox}/history`, 1);
    expect(history.map((e) => e.difference)).toEqual([second, first]);
    const who = {
      kind: 'operator',
      operatorId: designer.session.operator.id,
      email: designer.session.operator.email,
    };
    for (const entry of history) {
      expect(entry).toMatchObject({
        actor: who,
        method: 'PUT',
        route: '/environments/:environmentId/definition',
      });
    }
    expect(Date.parse(history[0]!.atUtc)).toBeGreaterThanOrEqual(Date.parse(history[1]!.atUtc));
    expect(JSON.stringify(history)).not.toContain('live_only');
  });

  it('has no history for an environment nothing was applied to yet, and 404 for an unknown one', async () => {
    const other = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
    const empty = await asAdminToken(
      controlPlane.url,
      'GET',
      `${definition(other.live.environmentId)}/history`,
    );
    expect(empty.body).toEqual({ entries: [], nextCursor: null });
    const unknown = await viewer.call('GET', `${definition(crypto.randomUUID())}/history`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'environment.not_found']);
  });

  it('refuses an unknown query key or a bad limit, precisely', async () => {
    const path = `${definition(tenant.sandbox.environmentId)}/history`;
    const unknownKey = await viewer.call('GET', `${path}?order=oldest`);
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.code).toMatch(/^validation\./);
    const badLimit = await viewer.call('GET', `${path}?limit=0`);
    expect([badLimit.status, badLimit.body.code]).toEqual([400, 'validation.limit']);
  });
});

describe('audit log order and environment filter', () => {
  const log = () => `/organizations/${tenant.organizationId}/audit-log`;

  it('reads newest first as the exact reverse of oldest first, page by page', async () => {
    const oldest = await allPages(asToken, log(), 2);
    const newest = await allPages(asToken, `${log()}?order=newest`, 2);
    expect(newest.length).toBeGreaterThan(4);
    expect(newest.map((e) => e.auditId)).toEqual(oldest.map((e) => e.auditId).reverse());
  });

  it('keeps only the writes that named the environment', async () => {
    const live = await allPages(asToken, `${log()}?environmentId=${tenant.live.environmentId}`, 100);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((e) => e.targets.environmentId === tenant.live.environmentId)).toBe(true);
    expect(live.some((e) => e.route === '/environments/:environmentId/definition')).toBe(true);
  });

  it('refuses an unknown order or an environment id that is not a UUID', async () => {
    const order = await asAdminToken(controlPlane.url, 'GET', `${log()}?order=sideways`);
    expect([order.status, order.body.code]).toEqual([400, 'validation.order']);
    const environment = await asAdminToken(controlPlane.url, 'GET', `${log()}?environmentId=nope`);
    expect([environment.status, environment.body.code]).toEqual([400, 'validation.environment_id']);
  });
});
