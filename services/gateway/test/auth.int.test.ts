import { AdminApiError, AdminClient } from '@engage/cli';
import { generateApiKey, parseApiKey } from '@engage/contracts/api-key.ts';
import { createTenant, TEST_ADMIN_TOKEN } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, bearer, type InProcessGateway, startGateway } from './support.ts';

let gateway: InProcessGateway;
let admin: AdminClient;

beforeAll(async () => {
  gateway = await startGateway();
  admin = new AdminClient({ url: gateway.controlPlaneUrl, token: TEST_ADMIN_TOKEN });
});
afterAll(() => gateway?.close());

/** A call that gets past authentication reaches the events endpoint (an empty batch: 400). */
const codeFor = async (authorization: string | undefined) => {
  const res = await gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: authorization === undefined ? {} : { authorization },
    payload: { events: [] },
  });
  return `${res.statusCode} ${res.json().code}`;
};

/** An admin API call to the control plane beside the gateway, answered in the shape of `app.inject`. */
async function adminCall(call: { method: string; url: string; headers: Record<string, string> }) {
  const res = await fetch(`${gateway.controlPlaneUrl}${call.url}`, {
    method: call.method,
    headers: call.headers,
  });
  const body = (await res.json()) as { code?: string; errors?: unknown };
  return { statusCode: res.status, json: () => body };
}

describe('admin API', () => {
  it('creates, lists, reads and updates organizations, projects and keys', async () => {
    const name = `org-${crypto.randomUUID()}`;
    const org = await admin.createOrganization({ name, liveMonthlyActivePlayersCap: 500 });
    expect(org).toMatchObject({ name, billingStatus: 'none', liveMonthlyActivePlayersCap: 500 });
    expect((await admin.listOrganizations()).map((o) => o.organizationId)).toContain(org.organizationId);

    const project = await admin.createProject(org.organizationId, { name: 'game' });
    expect(project.sandbox.kind).toBe('Sandbox');
    expect(project.live.kind).toBe('Live');
    expect(project.sandbox.environmentId).not.toBe(project.live.environmentId);
    const detail = await admin.getOrganization(org.organizationId);
    expect(detail.projects).toEqual([project]);

    const updated = await admin.updateOrganization(org.organizationId, {
      billingStatus: 'active',
      liveMonthlyActivePlayersCap: null,
    });
    expect(updated).toMatchObject({ billingStatus: 'active', liveMonthlyActivePlayersCap: null });

    const key = await admin.createApiKey(project.live.environmentId, { name: 'server' });
    expect(key.apiKey).toMatch(/^eng_live_/);
    const listed = await admin.listApiKeys(project.live.environmentId);
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('apiKey');
    const { rows } = await gateway.pool.query('SELECT secret_sha256 FROM api_keys WHERE api_key_id = $1', [
      key.apiKeyId,
    ]);
    // The secret is base64url, which may itself contain '_': take it as the key's parser does.
    expect(JSON.stringify(rows)).not.toContain(parseApiKey(key.apiKey)?.secret);
  });

  it('lists organizations in pages, oldest first, and by name', async () => {
    const name = `paged-${crypto.randomUUID()}`;
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await admin.createOrganization({ name }));
    const ids = created.map((o) => o.organizationId);

    const first = await admin.listOrganizationsPage({ name, limit: 2 });
    const second = await admin.listOrganizationsPage({ name, limit: 2, after: first.nextCursor! });
    const last = await admin.listOrganizationsPage({ name, limit: 2, after: second.nextCursor! });
    expect([first, second, last].flatMap((p) => p.organizations.map((o) => o.organizationId))).toEqual(ids);
    expect(last.nextCursor).toBeNull();
    expect((await admin.listOrganizations({ name })).map((o) => o.organizationId)).toEqual(ids);
    expect((await admin.listOrganizations()).map((o) => o.organizationId)).toEqual(
      expect.arrayContaining(ids),
    );

    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['after=not-a-cursor', 'after'],
      ['offset=10', 'offset'], // an unknown key: validation.request naming it
    ]) {
      const res = await adminCall({
        method: 'GET',
        url: `/admin/v1/organizations?${query}`,
        headers: adminHeaders,
      });
      expect(res.statusCode, query).toBe(400);
      const [error] = res.json().errors as { code: string; message: string }[];
      expect(`${error!.code} ${error!.message}`, query).toContain(field);
    }
  });

  it('refuses a wrong or missing admin token, and project keys', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-wrong-token' },
      bearer(tenant.sandbox.apiKey),
    ]) {
      const res = await adminCall({ method: 'GET', url: '/admin/v1/organizations', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('admin.unauthorized');
    }
    const ok = await adminCall({
      method: 'GET',
      url: '/admin/v1/organizations',
      headers: adminHeaders,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 404 for unknown objects', async () => {
    const err = await admin.getOrganization(crypto.randomUUID()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdminApiError);
    expect((err as AdminApiError).code).toBe('organization.not_found');
  });
});

describe('authentication', () => {
  it('accepts a key with or without the Bearer prefix', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    expect(await codeFor(`Bearer ${tenant.sandbox.apiKey}`)).toBe('400 event_batch.empty');
    expect(await codeFor(tenant.sandbox.apiKey)).toBe('400 event_batch.empty');
    expect(await codeFor(tenant.live.apiKey)).toBe('400 event_batch.empty');
  });

  it('answers 401 auth.api_key_invalid to a missing, malformed, unknown or wrong key', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    const wrongSecret = `${tenant.sandbox.apiKey.slice(0, -4)}AAAA`;
    const wrongMarker = tenant.sandbox.apiKey.replace('eng_sandbox_', 'eng_live_');
    for (const header of [
      undefined,
      '',
      'Bearer',
      'not-a-key',
      generateApiKey('Sandbox').key,
      wrongSecret,
      wrongMarker,
    ]) {
      expect(await codeFor(header)).toBe('401 auth.api_key_invalid');
    }
  });

  it('refuses a wrong secret for a key whose right secret was just accepted', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    const key = tenant.sandbox.apiKey;
    expect(await codeFor(key)).toBe('400 event_batch.empty');
    for (const wrong of [`${key.slice(0, -4)}AAAA`, key.slice(0, -1), `${key}A`]) {
      expect(await codeFor(wrong)).toBe('401 auth.api_key_invalid');
    }
    expect(await codeFor(key)).toBe('400 event_batch.empty');
  });

  it('refuses a revoked key once its record arrives', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    const [key] = await admin.listApiKeys(tenant.sandbox.environmentId);
    expect(await codeFor(tenant.sandbox.apiKey)).toBe('400 event_batch.empty');
    const revoked = await admin.revokeApiKey(key!.apiKeyId);
    expect(revoked.revokedAtUtc).not.toBeNull();
    await expect
      .poll(() => codeFor(tenant.sandbox.apiKey), { timeout: 5_000 })
      .toBe('401 auth.api_key_invalid');
  });

  it('answers 402 to Live keys without active billing, never to Sandbox keys', async () => {
    const none = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { billingStatus: 'none' });
    const overdue = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      billingStatus: 'overdue',
    });
    expect(await codeFor(none.live.apiKey)).toBe('402 billing_required');
    expect(await codeFor(overdue.live.apiKey)).toBe('402 billing_payment_overdue');
    expect(await codeFor(none.sandbox.apiKey)).toBe('400 event_batch.empty');
    expect(await codeFor(overdue.sandbox.apiKey)).toBe('400 event_batch.empty');
  });
});
