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
import { REFUSED_ADDRESS_TEXT } from '../../src/webhooks/domain/address.ts';
import { asAdminToken, type Console, operatorWithRole } from '../operators/support.ts';

// The admin routes of webhooks on a control plane process that sends nothing (WEBHOOKS_ENABLED=false):
// what is stored, answered, refused and audited. Sending is delivery.int.test.ts's.
let controlPlane: ServiceProcess;
let tenant: Tenant;
let viewer: Console;
let admin: Console;

const ENDPOINT = 'https://hooks.example.test/engage';
const as = (method: string, path: string, body?: unknown) =>
  asAdminToken(controlPlane.url, method, path, body);
const create = (body: unknown, environmentId = tenant.sandbox.environmentId) =>
  as('POST', `/environments/${environmentId}/webhooks`, body);

beforeAll(async () => {
  controlPlane = await spawnService(
    stackConfig().repoRoot,
    'control-plane',
    serviceEnv(uniqueTopicPrefix(), { WEBHOOKS_ENABLED: 'false', WEBHOOK_ALLOW_INSECURE_URLS: 'false' }),
  );
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  [viewer, admin] = await Promise.all([
    operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer'),
    operatorWithRole(controlPlane.url, tenant.organizationId, 'admin'),
  ]);
}, 120_000);

afterAll(() => controlPlane?.stop());

async function auditEntries(): Promise<AuditEntry[]> {
  const page = await as('GET', `/organizations/${tenant.organizationId}/audit-log?order=newest&limit=50`);
  return page.body.entries;
}

describe('webhook endpoints', () => {
  it('creates an endpoint with defaults and answers its secret once', async () => {
    const created = await create({ url: ENDPOINT, eventTypes: ['points.adjusted', 'mission.completed'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      environmentId: tenant.sandbox.environmentId,
      url: ENDPOINT,
      description: '',
      eventTypes: ['points.adjusted', 'mission.completed'],
      rankThreshold: 10,
      status: 'active',
      pausedReason: null,
      pausedAt: null,
      secretRotatedAt: null,
      health: { lastDeliveryAt: null, lastStatus: null, consecutiveFailures: 0, pendingDeliveries: 0 },
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const read = await as('GET', `/webhooks/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    const { secret: _secret, ...shown } = created.body;
    expect(read.body).toEqual(shown);

    const listed = await viewer.call('GET', `/environments/${tenant.sandbox.environmentId}/webhooks`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((e: { id: string }) => e.id)).toContain(created.body.id);
    const other = await as('GET', `/environments/${tenant.live.environmentId}/webhooks`);
    expect(other.body.items).toEqual([]);

    const [entry] = await auditEntries();
    expect(entry).toMatchObject({
      method: 'POST',
      route: '/environments/:environmentId/webhooks',
      targets: { environmentId: tenant.sandbox.environmentId, webhookId: created.body.id },
      before: null,
    });
    expect(JSON.stringify(entry)).not.toContain(created.body.secret);
  });

  it('refuses bad bodies with the field named and stores nothing', async () => {
    const before = await as('GET', `/environments/${tenant.live.environmentId}/webhooks`);
    const cases: [unknown, string][] = [
      [{ url: 'http://hooks.example.test/x', eventTypes: ['points.adjusted'] }, 'validation.url'],
      [{ url: 'ftp://hooks.example.test/x', eventTypes: ['points.adjusted'] }, 'validation.url'],
      [{ url: 'https://user:pw@hooks.example.test/x', eventTypes: ['points.adjusted'] }, 'validation.url'],
      [{ url: ENDPOINT, eventTypes: [] }, 'validation.event_types'],
      [{ url: ENDPOINT, eventTypes: ['points.adjusted', 'points.adjusted'] }, 'validation.event_types'],
      [{ url: ENDPOINT, eventTypes: ['webhook.ping'] }, 'validation.event_types'],
      [{ url: ENDPOINT, eventTypes: ['points.adjusted'], rankThreshold: 0 }, 'validation.rank_threshold'],
      [{ url: ENDPOINT, eventTypes: ['points.adjusted'], rankThreshold: 1001 }, 'validation.rank_threshold'],
      [{ url: ENDPOINT, eventTypes: ['points.adjusted'], secret: 'mine' }, 'validation.request'],
    ];
    for (const [body, code] of cases) {
      const answer = await create(body, tenant.live.environmentId);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(
        answer.body.errors.map((e: { code: string }) => e.code),
        JSON.stringify(body),
      ).toContain(code);
    }
    // Plain http to loopback is for gateways that allow insecure URLs (development, tests): not this one.
    const loopback = await create({ url: 'http://127.0.0.1:9/x', eventTypes: ['points.adjusted'] });
    expect(loopback.body.code).toBe('validation.url');
    const after = await as('GET', `/environments/${tenant.live.environmentId}/webhooks`);
    expect(after.body).toEqual(before.body);
  });

  it('refuses every address that is not public with one and the same text, and stores nothing', async () => {
    const before = await as('GET', `/environments/${tenant.live.environmentId}/webhooks`);
    const messages = new Set<string>();
    for (const host of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '203.0.113.9',
      '[::1]',
      '[64:ff9b::a00:1]',
      '[::ffff:192.168.0.1]',
      '[fd00::1]',
    ]) {
      const answer = await create(
        { url: `https://${host}/hooks`, eventTypes: ['points.adjusted'] },
        tenant.live.environmentId,
      );
      expect([answer.status, answer.body.code], host).toEqual([400, 'validation.url']);
      messages.add(answer.body.errors[0].message);
    }
    expect([...messages]).toEqual([REFUSED_ADDRESS_TEXT]);
    const after = await as('GET', `/environments/${tenant.live.environmentId}/webhooks`);
    expect(after.body).toEqual(before.body);
  });

  it('answers 404 for an unknown environment, endpoint or delivery', async () => {
    const missing = crypto.randomUUID();
    const environment = await create({ url: ENDPOINT, eventTypes: ['points.adjusted'] }, missing);
    expect([environment.status, environment.body.code]).toEqual([404, 'environment.not_found']);
    for (const [method, path] of [
      ['GET', `/webhooks/${missing}`],
      ['PATCH', `/webhooks/${missing}`],
      ['DELETE', `/webhooks/${missing}`],
      ['POST', `/webhooks/${missing}/rotate-secret`],
      ['GET', `/webhooks/${missing}/deliveries`],
      ['POST', `/webhooks/${missing}/ping`],
      ['POST', `/webhooks/${missing}/deliveries/${missing}/replay`],
    ] as const) {
      const answer = await as(method, path, method === 'PATCH' ? {} : undefined);
      expect([answer.status, answer.body.code], `${method} ${path}`).toEqual([404, 'webhook.not_found']);
    }
    const { body: endpoint } = await create({ url: ENDPOINT, eventTypes: ['points.adjusted'] });
    const delivery = await as('POST', `/webhooks/${endpoint.id}/deliveries/${missing}/replay`);
    expect([delivery.status, delivery.body.code]).toEqual([404, 'webhook_delivery.not_found']);
  });

  it('lets a viewer read and an admin write', async () => {
    const { body: endpoint } = await create({ url: ENDPOINT, eventTypes: ['streak.broken'] });
    expect((await viewer.call('GET', `/webhooks/${endpoint.id}`)).status).toBe(200);
    expect((await viewer.call('GET', `/webhooks/${endpoint.id}/deliveries`)).status).toBe(200);
    const refused = await viewer.call('PATCH', `/webhooks/${endpoint.id}`, { description: 'mine' });
    expect([refused.status, refused.body.code]).toEqual([403, 'admin.forbidden']);
    expect((await viewer.call('POST', `/webhooks/${endpoint.id}/ping`)).status).toBe(403);
    const changed = await admin.call('PATCH', `/webhooks/${endpoint.id}`, { description: 'ours' });
    expect([changed.status, changed.body.description]).toEqual([200, 'ours']);
  });

  it('changes, pauses and resumes an endpoint, auditing each write', async () => {
    const { body: endpoint } = await create({ url: ENDPOINT, eventTypes: ['points.adjusted'] });
    const changed = await as('PATCH', `/webhooks/${endpoint.id}`, {
      url: 'https://other.example.test/hook',
      eventTypes: ['leaderboard.rank_reached', 'leaderboard.period_settled'],
      rankThreshold: 3,
      description: 'top three',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      url: 'https://other.example.test/hook',
      eventTypes: ['leaderboard.rank_reached', 'leaderboard.period_settled'],
      rankThreshold: 3,
      description: 'top three',
      status: 'active',
    });
    const paused = await as('PATCH', `/webhooks/${endpoint.id}`, { status: 'paused' });
    expect(paused.body).toMatchObject({ status: 'paused', pausedReason: null });
    expect(paused.body.pausedAt).not.toBeNull();
    const [pauseEntry] = await auditEntries();
    expect(pauseEntry).toMatchObject({
      method: 'PATCH',
      route: '/webhooks/:webhookId',
      before: { status: 'active' },
      after: { status: 'paused' },
    });
    const resumed = await as('PATCH', `/webhooks/${endpoint.id}`, { status: 'active' });
    expect(resumed.body).toMatchObject({ status: 'active', pausedAt: null, pausedReason: null });
  });

  it('rotates the secret with an overlap, and at once with overlap 0', async () => {
    const { body: endpoint } = await create({ url: ENDPOINT, eventTypes: ['purchase.made'] });
    const rotated = await as('POST', `/webhooks/${endpoint.id}/rotate-secret`, { overlapSeconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(expires).toBeGreaterThan(3500_000);
    expect(expires).toBeLessThanOrEqual(3600_000);
    const [entry] = await auditEntries();
    expect(entry?.route).toBe('/webhooks/:webhookId/rotate-secret');
    expect(JSON.stringify(entry)).not.toContain(rotated.body.secret);

    const byDefault = await as('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    expect(byDefault.status).toBe(200);
    expect(Date.parse(byDefault.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(86_000_000);
    const atOnce = await as('POST', `/webhooks/${endpoint.id}/rotate-secret`, { overlapSeconds: 0 });
    expect(atOnce.body.previousSecretExpiresAt).toBeNull();
    const read = await as('GET', `/webhooks/${endpoint.id}`);
    expect(read.body.secretRotatedAt).not.toBeNull();
    const tooLong = await as('POST', `/webhooks/${endpoint.id}/rotate-secret`, { overlapSeconds: 604_801 });
    expect(tooLong.body.code).toBe('validation.overlap_seconds');
  });

  it('queues a ping, lists deliveries newest first in pages, replays one, and deletes the endpoint', async () => {
    const { body: endpoint } = await create({ url: ENDPOINT, eventTypes: ['points.adjusted'] });
    const pings = [];
    for (let i = 0; i < 3; i++) {
      const ping = await as('POST', `/webhooks/${endpoint.id}/ping`);
      expect(ping.status).toBe(202);
      pings.push(ping.body);
    }
    expect(pings[0]).toMatchObject({
      webhookId: endpoint.id,
      eventType: 'webhook.ping',
      playerId: null,
      status: 'pending',
      attempts: 0,
      payload: {
        id: pings[0].id,
        type: 'webhook.ping',
        environmentId: tenant.sandbox.environmentId,
        data: { webhookId: endpoint.id },
      },
    });
    const first = await as('GET', `/webhooks/${endpoint.id}/deliveries?limit=2`);
    expect(first.body.items.map((d: { id: string }) => d.id)).toEqual([pings[2].id, pings[1].id]);
    const second = await as(
      'GET',
      `/webhooks/${endpoint.id}/deliveries?limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body).toEqual({ items: [pings[0]], nextCursor: null });
    const delivered = await as('GET', `/webhooks/${endpoint.id}/deliveries?status=delivered`);
    expect(delivered.body.items).toEqual([]);
    const badCursor = await as('GET', `/webhooks/${endpoint.id}/deliveries?cursor=nonsense`);
    expect(badCursor.body.code).toBe('validation.cursor');
    expect((await as('GET', `/webhooks/${endpoint.id}`)).body.health.pendingDeliveries).toBe(3);

    const replayed = await as('POST', `/webhooks/${endpoint.id}/deliveries/${pings[0].id}/replay`);
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({ id: pings[0].id, status: 'pending', attempts: 0 });

    expect((await as('DELETE', `/webhooks/${endpoint.id}`)).status).toBe(204);
    expect((await as('GET', `/webhooks/${endpoint.id}`)).status).toBe(404);
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({ method: 'DELETE', after: null, before: { id: endpoint.id } });
  });
});
