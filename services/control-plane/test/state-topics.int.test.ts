import { type ApiKeyChange, type TopicDefinition, topics } from '@engage/contracts';
import { createTenant, eventually, readTopicRecords, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/application/control-plane-writes.ts';
import {
  adminHeaders,
  bearer,
  type InProcessControlPlane,
  injectGateway,
  startControlPlane,
} from './support.ts';

/**
 * The gateway's state changes on their topics, made through the public and admin APIs and read back
 * from the real broker: what the outbox relay published after each change's commit.
 */

let controlPlane: InProcessControlPlane;
let tenant: Tenant;

const ATTRIBUTES = [
  { key: 'tier', type: 'string' },
  { key: 'level', type: 'number' },
  { key: 'vip', type: 'boolean' },
] as const;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN, {
    definition: { playerAttributes: [...ATTRIBUTES] },
  });
});
afterAll(() => controlPlane?.close());

/** The topic's records matching `mine`, once there are at least `count` of them. */
function recordsOf<T>(definition: TopicDefinition<T>, mine: (r: T) => boolean, count: number): Promise<T[]> {
  return eventually(`${count} records on ${definition.base}`, async () => {
    const records = (await readTopicRecords(controlPlane.topicPrefix, definition)).filter(mine);
    return records.length >= count ? records : undefined;
  });
}

const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  controlPlane.app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: adminHeaders,
    ...(payload ? { payload } : {}),
  });

describe('players.attributes.v1', () => {
  it('publishes each change with the whole set after it, and nothing for a write that changes nothing', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const set = (payload: object) =>
      injectGateway(controlPlane, {
        method: 'POST',
        url: '/v1/players/attributes',
        headers: bearer(tenant.live.apiKey),
        payload: { playerId, ...payload },
      });
    expect(
      (await set({ timeZone: 'Europe/Paris', attributes: { tier: 'gold', level: 12.5 } })).statusCode,
    ).toBe(200);
    expect((await set({ attributes: { tier: 'gold' } })).statusCode).toBe(200); // the same value: no change
    expect((await set({ attributes: { level: null, vip: true } })).statusCode).toBe(200);

    const records = await recordsOf(topics.playersAttributes, (r) => r.playerId === playerId, 2);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      organizationId: tenant.organizationId,
      environmentId: tenant.live.environmentId,
      attributes: {
        tier: { type: 'String', string: 'gold', number: null, boolean: null },
        level: { type: 'Number', string: null, number: '12.5', boolean: null },
      },
      changedKeys: ['level', 'tier'],
      timeZone: 'Europe/Paris',
      timeZoneChanged: true,
      isNewPlayer: true,
    });
    expect(records[1]).toMatchObject({
      attributes: {
        tier: { type: 'String', string: 'gold' },
        vip: { type: 'Boolean', boolean: true },
      },
      changedKeys: ['level', 'vip'],
      timeZone: 'Europe/Paris',
      timeZoneChanged: false,
      isNewPlayer: false,
    });
    expect(Object.keys(records[1]!.attributes).sort()).toEqual(['tier', 'vip']);
    expect(records[0]!.changeId).not.toBe(records[1]!.changeId);
  });
});

describe('definitions.applied.v1', () => {
  it('publishes each apply that changed something, with its version, who and what changed', async () => {
    const { environmentId } = tenant.live;
    const file = { playerAttributes: [...ATTRIBUTES, { key: 'country', type: 'string' }] };
    expect(
      (await admin('PUT', `/environments/${environmentId}/definition?dryRun=true`, file)).statusCode,
    ).toBe(200);
    expect((await admin('PUT', `/environments/${environmentId}/definition`, file)).statusCode).toBe(200);
    // The same file again changes nothing, so it is no new version.
    expect((await admin('PUT', `/environments/${environmentId}/definition`, file)).statusCode).toBe(200);
    const withoutVip = { playerAttributes: file.playerAttributes.filter((a) => a.key !== 'vip') };
    expect((await admin('PUT', `/environments/${environmentId}/definition`, withoutVip)).statusCode).toBe(
      200,
    );

    const records = await recordsOf(topics.definitionsApplied, (r) => r.environmentId === environmentId, 3);
    expect(records.map((r) => [r.version, r.changes])).toEqual([
      [
        1,
        ATTRIBUTES.map((a) => ({ section: 'playerAttributes', key: a.key, change: 'Created', fields: [] })),
      ],
      [2, [{ section: 'playerAttributes', key: 'country', change: 'Created', fields: [] }]],
      [3, [{ section: 'playerAttributes', key: 'vip', change: 'Removed', fields: [] }]],
    ]);
    expect(records[0]).toMatchObject({
      organizationId: tenant.organizationId,
      environmentKind: 'Live',
      actor: { kind: 'AdminToken', operatorId: null },
    });
    // The applyId is the apply's entry in the definition history.
    const history = await admin('GET', `/environments/${environmentId}/definition/history?limit=10`);
    const auditIds = history.json().entries.map((e: { auditId: string }) => e.auditId);
    expect(auditIds).toEqual(records.map((r) => r.applyId).reverse());
  });
});

describe('api-keys.v1', () => {
  const mine = (r: ApiKeyChange) => r.environmentId === tenant.live.environmentId;

  it('publishes creations and revocations, never the secret, and nothing for a change that rolled back', async () => {
    const listed = await admin('GET', `/environments/${tenant.live.environmentId}/api-keys`);
    const [key] = listed.json().apiKeys as { apiKeyId: string; publicId: string }[];
    expect((await admin('DELETE', `/api-keys/${key!.apiKeyId}`)).statusCode).toBe(200);
    expect((await admin('DELETE', `/api-keys/${key!.apiKeyId}`)).statusCode).toBe(200); // already revoked

    // A creation whose transaction fails after its record was written (the audit entry is refused):
    // neither the key nor its record is kept.
    const refusedOrigin = { actor: { kind: 'nobody' }, method: 'POST', route: 'test' } as never;
    await expect(
      createApiKey(
        controlPlane.pool,
        { topicPrefix: controlPlane.topicPrefix, kick: () => {} },
        refusedOrigin,
        {
          organizationId: tenant.organizationId,
          environmentId: tenant.live.environmentId,
          kind: 'Live',
          name: 'rolled back',
        },
      ),
    ).rejects.toThrow();
    // Published after the one that rolled back would have been: once it is on the topic, so is anything before.
    const after = await admin('POST', `/environments/${tenant.live.environmentId}/api-keys`, {
      name: 'after',
    });
    expect(after.statusCode).toBe(201);

    const records = await recordsOf(topics.apiKeys, mine, 3);
    expect(records.map((r) => [r.kind, r.apiKeyId, r.name])).toEqual([
      ['Created', key!.apiKeyId, null],
      ['Revoked', key!.apiKeyId, null],
      ['Created', after.json().apiKeyId, 'after'],
    ]);
    expect(records[0]).toMatchObject({
      publicId: key!.publicId,
      organizationId: tenant.organizationId,
      environmentKind: 'Live',
      actor: { kind: 'AdminToken', operatorId: null },
    });
    const published = JSON.stringify(records);
    expect(published).not.toContain(tenant.live.apiKey);
    expect(published).not.toContain(after.json().apiKey);
  });
});
