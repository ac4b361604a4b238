import { AdminClient } from '@engage/cli';
import { type DefinitionApplied, topics } from '@engage/contracts';
import { parseApiKey } from '@engage/contracts/api-key.ts';
import { createTenant, readTopicRecords, TEST_ADMIN_TOKEN } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, startGateway } from './support.ts';

/**
 * The edge learns keys, organizations and event definitions from the control plane's topics:
 * changes reach it while it runs, and a gateway started afresh reads them back before it listens.
 */

let gateway: InProcessGateway;
let admin: AdminClient;

beforeAll(async () => {
  gateway = await startGateway();
  admin = new AdminClient({ url: gateway.controlPlaneUrl, token: TEST_ADMIN_TOKEN });
});
afterAll(() => gateway?.close());

const send = (on: InProcessGateway, apiKey: string, events: unknown[]) =>
  on.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { ...bearer(apiKey), 'content-type': 'application/json' },
    payload: JSON.stringify({ events }),
  });

/** Status and first item's outcome of a one-item batch. */
const outcomeOf = async (on: InProcessGateway, apiKey: string, event: Record<string, unknown>) => {
  const res = await send(on, apiKey, [event]);
  if (res.statusCode !== 200) return `${res.statusCode} ${res.json().code}`;
  const [result] = res.json().results;
  return result.accepted ? 'accepted' : result.errors[0].code;
};

const definitionRecords = async (environmentId: string): Promise<DefinitionApplied[]> =>
  (await readTopicRecords(gateway.topicPrefix, topics.definitionsApplied)).filter(
    (r) => r.environmentId === environmentId,
  );

describe('keys from api-keys.state.v1', () => {
  it('accepts a key at its first use right after creation, and refuses it once revoked', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    const created = await admin.createApiKey(tenant.sandbox.environmentId);
    expect(await outcomeOf(gateway, created.apiKey, { eventKey: 'e', playerId: 'p' })).toBe(
      'event.not_found',
    );
    await admin.revokeApiKey(created.apiKeyId);
    await expect
      .poll(() => outcomeOf(gateway, created.apiKey, { eventKey: 'e', playerId: 'p' }), { timeout: 5_000 })
      .toBe('401 auth.api_key_invalid');
    // The record of a revoked key no longer carries the hash of its secret.
    const publicId = parseApiKey(created.apiKey)!.publicId;
    expect(gateway.views.apiKey(publicId)).toMatchObject({ revoked: true, secretSha256: null });
  });
});

describe('organizations from organizations.state.v1', () => {
  it('refuses and admits Live keys as billing changes', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    const event = { eventKey: 'e', playerId: 'p' };
    expect(await outcomeOf(gateway, tenant.live.apiKey, event)).toBe('event.not_found');
    await admin.updateOrganization(tenant.organizationId, { billingStatus: 'overdue' });
    await expect
      .poll(() => outcomeOf(gateway, tenant.live.apiKey, event), { timeout: 5_000 })
      .toBe('402 billing_payment_overdue');
    await admin.updateOrganization(tenant.organizationId, { billingStatus: 'active' });
    await expect
      .poll(() => outcomeOf(gateway, tenant.live.apiKey, event), { timeout: 5_000 })
      .toBe('event.not_found');
  });

  it('admits Live players against the cap the organization has now', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: { events: [{ key: 'played' }] },
    });
    await admin.updateOrganization(tenant.organizationId, { liveMonthlyActivePlayersCap: 1 });
    await expect
      .poll(() => gateway.views.organization(tenant.organizationId)?.liveMonthlyActivePlayersCap)
      .toBe(1);
    expect(await outcomeOf(gateway, tenant.live.apiKey, { eventKey: 'played', playerId: 'first' })).toBe(
      'accepted',
    );
    expect(await outcomeOf(gateway, tenant.live.apiKey, { eventKey: 'played', playerId: 'second' })).toBe(
      'monthly_mau_limit_exceeded',
    );
  });
});

describe('definitions from definitions.applied.v1', () => {
  it('publishes a discovered event as Created, then as Updated when a property is discovered or it is declared', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: { discovery: true },
    });
    const { environmentId } = tenant.sandbox;
    const found = { eventKey: 'found_it', playerId: 'p', properties: { level: 3 } };
    expect(await outcomeOf(gateway, tenant.sandbox.apiKey, found)).toBe('accepted');
    const more = { ...found, properties: { level: 4, zone: 'north' } };
    expect(await outcomeOf(gateway, tenant.sandbox.apiKey, more)).toBe('accepted');
    await admin.applyDefinition(environmentId, {
      discovery: true,
      events: [{ key: 'found_it', properties: { level: { type: 'number' }, zone: { type: 'string' } } }],
    });

    let records: DefinitionApplied[] = [];
    await expect
      .poll(async () => {
        records = await definitionRecords(environmentId);
        return records.flatMap((r) => r.changes.filter((c) => c.key === 'found_it').map((c) => c.change));
      })
      .toEqual(['Created', 'Updated', 'Updated']);
    const [created, extended, declared] = records.filter((r) => r.changes.some((c) => c.key === 'found_it'));
    expect(created!.actor).toEqual({ kind: 'Discovery', operatorId: null });
    expect(extended!.changes).toEqual([
      { section: 'events', key: 'found_it', change: 'Updated', fields: ['properties'] },
    ]);
    expect(declared!.actor.kind).toBe('AdminToken');
    expect(declared!.changes.find((c) => c.key === 'found_it')!.fields).toContain('discovered');
    // Versions count every change; each record carries the definitions after it.
    const versions = records.map((r) => r.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(created!.events?.definitions.find((d) => d.key === 'found_it')).toEqual({
      key: 'found_it',
      active: true,
      discovered: true,
      properties: [{ name: 'level', type: 'number', required: false }],
    });
    expect(declared!.events?.definitions.find((d) => d.key === 'found_it')?.discovered).toBe(false);
  });

  it('checks events against an apply as soon as the apply has answered', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl);
    const event = { eventKey: 'late', playerId: 'p', properties: { n: 1 } };
    expect(await outcomeOf(gateway, tenant.sandbox.apiKey, event)).toBe('event.not_found');
    await admin.applyDefinition(tenant.sandbox.environmentId, {
      events: [{ key: 'late', properties: { n: { type: 'number' } } }],
    });
    await expect
      .poll(() => outcomeOf(gateway, tenant.sandbox.apiKey, event), { timeout: 5_000 })
      .toBe('accepted');
  });
});

describe('a gateway started afresh', () => {
  it('holds every key, organization and definition before it listens', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      liveMonthlyActivePlayersCap: 50,
      definition: { events: [{ key: 'restored', properties: { n: { type: 'number', required: true } } }] },
    });
    const extra = await admin.createApiKey(tenant.sandbox.environmentId);
    await admin.revokeApiKey(extra.apiKeyId);
    const revokedKey = extra.apiKey;
    await admin.updateOrganization(tenant.organizationId, { billingStatus: 'overdue' });
    // Everything above is on the topics once the running gateway has heard of the last change.
    await expect
      .poll(() => gateway.views.organization(tenant.organizationId)?.billingStatus, { timeout: 5_000 })
      .toBe('overdue');
    const fresh = await startGateway({ topicPrefix: gateway.topicPrefix });
    try {
      const { views } = fresh;
      expect(views.apiKey(parseApiKey(tenant.sandbox.apiKey)!.publicId)?.revoked).toBe(false);
      expect(views.apiKey(parseApiKey(revokedKey)!.publicId)?.revoked).toBe(true);
      expect(views.organization(tenant.organizationId)).toMatchObject({
        billingStatus: 'overdue',
        liveMonthlyActivePlayersCap: 50,
      });
      expect(views.eventRules(tenant.sandbox.environmentId).events.get('restored')).toEqual({
        key: 'restored',
        active: true,
        properties: { n: { type: 'number', required: true } },
      });
      const event = { eventKey: 'restored', playerId: 'p' };
      expect(await outcomeOf(fresh, tenant.sandbox.apiKey, event)).toBe('event.required_property_missing');
      expect(await outcomeOf(fresh, tenant.live.apiKey, event)).toBe('402 billing_payment_overdue');
      expect(await outcomeOf(fresh, revokedKey, event)).toBe('401 auth.api_key_invalid');
    } finally {
      await fresh.close();
    }
  });
});
