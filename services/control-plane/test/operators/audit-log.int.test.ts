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
import { asAdminToken, type Console, call, operatorWithRole, PASSWORD } from './support.ts';

let controlPlane: ServiceProcess;
let tenant: Tenant;
let owner: Console;

beforeAll(async () => {
  controlPlane = await spawnService(stackConfig().repoRoot, 'control-plane', serviceEnv(uniqueTopicPrefix()));
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  owner = await operatorWithRole(controlPlane.url, tenant.organizationId, 'owner');
}, 120_000);

afterAll(() => controlPlane?.stop());

async function auditLog(organizationId = tenant.organizationId): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let after: string | null = null;
  do {
    const query: string = `limit=3${after ? `&after=${after}` : ''}`;
    const page = await asAdminToken(
      controlPlane.url,
      'GET',
      `/organizations/${organizationId}/audit-log?${query}`,
    );
    expect(page.status).toBe(200);
    entries.push(...page.body.entries);
    after = page.body.nextCursor;
  } while (after);
  return entries;
}

const deniedLogLines = () =>
  controlPlane
    .logs()
    .split('\n')
    .filter((line) => line.includes('"msg":"admin write denied"'));

const lastEntry = async () => (await auditLog()).at(-1)!;
const byOwner = () => ({
  kind: 'operator',
  operatorId: owner.session.operator.id,
  email: owner.session.operator.email,
});

describe('audit log', () => {
  it('records the writes that built the tenant, as the admin token, oldest first in pages', async () => {
    const entries = await auditLog();
    expect(entries.map((e) => `${e.method} ${e.route}`)).toEqual([
      'POST /organizations',
      'POST /organizations/:organizationId/projects',
      'POST /environments/:environmentId/api-keys',
      'POST /environments/:environmentId/api-keys',
      'POST /organizations/:organizationId/invitations',
      'POST /invitations/accept',
    ]);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'admin-token', operatorId: null, email: null },
      targets: { organizationId: tenant.organizationId },
      before: null,
      after: { organizationId: tenant.organizationId, billingStatus: 'active' },
    });
    expect(entries[1]!.after).toMatchObject({ projectId: tenant.projectId });
    // A key's secret is shown once and never recorded.
    expect(JSON.stringify(entries)).not.toContain(tenant.live.apiKey);
  });

  it('records an organization change with its before and after', async () => {
    await asAdminToken(controlPlane.url, 'PATCH', `/organizations/${tenant.organizationId}`, {
      liveMonthlyActivePlayersCap: 1234,
    });
    expect(await lastEntry()).toMatchObject({
      method: 'PATCH',
      route: '/organizations/:organizationId',
      before: { liveMonthlyActivePlayersCap: null },
      after: { liveMonthlyActivePlayersCap: 1234 },
    });
  });

  it('records a key created and revoked by an operator', async () => {
    const admin = owner;
    const created = await admin.call('POST', `/environments/${tenant.sandbox.environmentId}/api-keys`, {
      name: 'ci',
    });
    const { apiKeyId } = created.body;
    expect(await lastEntry()).toMatchObject({
      actor: byOwner(),
      targets: {
        organizationId: tenant.organizationId,
        environmentId: tenant.sandbox.environmentId,
        apiKeyId,
      },
      before: null,
      after: { apiKeyId, name: 'ci', revokedAtUtc: null },
    });
    await admin.call('DELETE', `/api-keys/${apiKeyId}`);
    const revoked = await lastEntry();
    expect(revoked).toMatchObject({
      method: 'DELETE',
      route: '/api-keys/:apiKeyId',
      before: { apiKeyId, revokedAtUtc: null },
      after: { apiKeyId, revokedAtUtc: expect.any(String) },
    });
    expect(JSON.stringify(revoked)).not.toContain(created.body.apiKey);
  });

  it('records an environment file apply with the difference it answered, and nothing for a dry run', async () => {
    const path = `/environments/${tenant.sandbox.environmentId}/definition`;
    const file = { version: 1, events: [{ key: 'chest_opened' }] };
    const dryRun = await owner.call('PUT', `${path}?dryRun=true`, file);
    expect(dryRun.status).toBe(200);
    const before = (await auditLog()).length;
    expect(before).toBeGreaterThan(0);
    const applied = await owner.call('PUT', path, file);
    const entries = await auditLog();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({
      method: 'PUT',
      route: '/environments/:environmentId/definition',
      targets: { environmentId: tenant.sandbox.environmentId },
      difference: applied.body,
    });
    // The same file again changes nothing and records nothing.
    expect((await owner.call('PUT', path, file)).body.changed).toBe(false);
    expect(await auditLog()).toHaveLength(before + 1);
  });

  it('records operators invited, joining, their role changed and removed', async () => {
    const email = `audited-${crypto.randomUUID()}@example.test`;
    const invited = await owner.call('POST', `/organizations/${tenant.organizationId}/invitations`, {
      email,
      role: 'support',
    });
    expect(invited.status).toBe(201);
    const { invitationId, token } = invited.body;
    expect(await lastEntry()).toMatchObject({
      actor: byOwner(),
      route: '/organizations/:organizationId/invitations',
      targets: { invitationId },
      before: null,
      after: { invitationId, email, role: 'support' },
    });
    const joined = await call(controlPlane.url, 'POST', '/invitations/accept', {
      body: { token, password: PASSWORD },
    });
    expect(joined.status).toBe(200);
    const joinedEntry = await lastEntry();
    const { operatorId } = joinedEntry.targets;
    expect(joinedEntry).toMatchObject({
      actor: { kind: 'operator', operatorId, email },
      route: '/invitations/accept',
      targets: { invitationId },
      after: { email, role: 'support' },
    });
    // Neither the password nor the token is ever recorded.
    expect(JSON.stringify(await auditLog())).not.toContain(PASSWORD);
    expect(JSON.stringify(await auditLog())).not.toContain(token);

    await owner.call('PATCH', `/organizations/${tenant.organizationId}/operators/${operatorId}`, {
      role: 'admin',
    });
    expect(await lastEntry()).toMatchObject({ before: { role: 'support' }, after: { role: 'admin' } });
    const removed = await owner.call(
      'DELETE',
      `/organizations/${tenant.organizationId}/operators/${operatorId}`,
    );
    expect(removed.status).toBe(204);
    expect(await lastEntry()).toMatchObject({
      method: 'DELETE',
      before: { operatorId, role: 'admin' },
      after: null,
    });
  });

  it('keeps one audit log per organization', async () => {
    const other = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
    const entries = await auditLog(other.organizationId);
    expect(entries.every((e) => e.targets.organizationId === other.organizationId)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(tenant.organizationId);
  });

  it('records a write refused for lack of permission as denied, with a warn log line', async () => {
    const viewer = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    const byViewer = {
      kind: 'operator',
      operatorId: viewer.session.operator.id,
      email: viewer.session.operator.email,
    };
    const before = await auditLog();
    const refused = await viewer.call('POST', `/environments/${tenant.live.environmentId}/api-keys`, {});
    expect([refused.status, refused.body.code]).toEqual([403, 'admin.forbidden']);
    const entries = await auditLog();
    expect(entries).toHaveLength(before.length + 1);
    expect(entries.at(-1)).toMatchObject({
      actor: byViewer,
      method: 'POST',
      route: '/environments/:environmentId/api-keys',
      targets: { environmentId: tenant.live.environmentId },
      outcome: 'denied',
      refusal: 'admin.forbidden',
      before: null,
      after: null,
    });
    // Nothing was written all the same.
    const keys = await asAdminToken(
      controlPlane.url,
      'GET',
      `/environments/${tenant.live.environmentId}/api-keys`,
    );
    expect(keys.body.apiKeys).toHaveLength(1);
    expect(before.every((entry) => entry.outcome === 'allowed')).toBe(true);

    // A write into another organization is recorded in that organization's log.
    const other = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
    const foreign = await viewer.call('POST', `/organizations/${other.organizationId}/projects`, {
      name: 'x',
    });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'admin.forbidden']);
    expect((await auditLog(other.organizationId)).at(-1)).toMatchObject({
      actor: byViewer,
      route: '/organizations/:organizationId/projects',
      outcome: 'denied',
    });
    const denials = deniedLogLines().map((line) => JSON.parse(line));
    expect(denials).toContainEqual(
      expect.objectContaining({
        level: 40,
        route: '/organizations/:organizationId/projects',
        code: 'admin.forbidden',
        actor: byViewer,
      }),
    );
  });

  it('logs a write with a wrong token or without the CSRF token, recording no entry for an unknown caller', async () => {
    const viewer = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    const before = await auditLog();
    const path = `/environments/${tenant.sandbox.environmentId}/api-keys`;
    const wrongToken = await call(controlPlane.url, 'POST', path, {
      body: {},
      headers: { authorization: 'Bearer wrong-token-0123456789abcdef' },
    });
    expect([wrongToken.status, wrongToken.body.code]).toEqual([401, 'admin.unauthorized']);
    const noCsrf = await viewer.call('POST', path, {}, { csrf: false });
    expect([noCsrf.status, noCsrf.body.code]).toEqual([403, 'admin.csrf_failed']);
    expect(await auditLog()).toHaveLength(before.length);
    const denials = deniedLogLines();
    expect(denials.some((line) => line.includes('"code":"admin.unauthorized"'))).toBe(true);
    expect(denials.some((line) => line.includes('"code":"admin.csrf_failed"'))).toBe(true);
  });
});

describe('operators API', () => {
  it('lists operators and keeps an owner', async () => {
    const listed = await owner.call('GET', `/organizations/${tenant.organizationId}/operators`);
    expect(listed.body.operators).toContainEqual(
      expect.objectContaining({ operatorId: owner.session.operator.id, role: 'owner' }),
    );

    // The only owner of an organization can be neither demoted nor removed.
    const { organizationId } = tenant;
    const lastOwnerId = owner.session.operator.id;
    const demote = await owner.call('PATCH', `/organizations/${organizationId}/operators/${lastOwnerId}`, {
      role: 'admin',
    });
    expect([demote.status, demote.body.code]).toEqual([409, 'operator.last_owner']);
    const remove = await owner.call('DELETE', `/organizations/${organizationId}/operators/${lastOwnerId}`);
    expect([remove.status, remove.body.code]).toEqual([409, 'operator.last_owner']);
  });
});
