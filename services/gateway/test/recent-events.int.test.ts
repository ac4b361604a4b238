import type { EventBatchResult } from '@engage/contracts/http/events.ts';
import type { RecentEvent, RecentEventsPage } from '@engage/contracts/http/recent-events.ts';
import { createTenant, eventually, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorWithRole } from '../../control-plane/test/operators/support.ts';
import { adminHeaders, bearer, type InProcessGateway, startGateway } from './support.ts';

const definition = {
  discovery: false,
  events: [
    {
      key: 'level_completed',
      properties: { level: { type: 'number' as const, required: true } },
    },
  ],
};

const good = (playerId: string) => ({ eventKey: 'level_completed', playerId, properties: { level: 3 } });

async function send(gateway: InProcessGateway, apiKey: string, events: unknown[]): Promise<EventBatchResult> {
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { ...bearer(apiKey), 'content-type': 'application/json' },
    payload: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The debugger's read, through the control plane's admin API, which asks this gateway. */
async function recent(gateway: InProcessGateway, environmentId: string, query = '') {
  const response = await fetch(
    `${gateway.controlPlaneUrl}/admin/v1/environments/${environmentId}/events/recent${query}`,
    { headers: adminHeaders },
  );
  return { status: response.status, body: (await response.json()) as RecentEventsPage & { code?: string } };
}

/** The recent items once `count` of them (matching the query) are there: recording is asynchronous. */
const recentOnce = (gateway: InProcessGateway, environmentId: string, count: number, query = '') =>
  eventually(`${count} recent items`, async () => {
    const { status, body } = await recent(gateway, environmentId, query);
    expect(status, JSON.stringify(body)).toBe(200);
    return (body as RecentEventsPage).items.length >= count ? (body as RecentEventsPage) : undefined;
  });

describe('the live event debugger', () => {
  let gateway: InProcessGateway;
  let tenant: Tenant;

  beforeAll(async () => {
    gateway = await startGateway();
    tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
  });
  afterAll(() => gateway?.close());

  it('records every refused item with its codes, messages and paths; accepted ones only while watched', async () => {
    const environmentId = tenant.sandbox.environmentId;
    const player = `p-${crypto.randomUUID()}`;
    const result = await send(gateway, tenant.sandbox.apiKey, [
      good(player),
      { eventKey: 'level_lost', playerId: player },
      { eventKey: 'level_completed', playerId: player, properties: { level: 'three' } },
      { eventKey: 'level_completed', properties: { level: 1 } },
    ]);
    expect(result.results.map((r) => r.accepted)).toEqual([true, false, false, false]);

    const page = await recentOnce(gateway, environmentId, 3);
    // Newest first: the batch's items in reverse, the accepted one not recorded (nobody watched).
    expect(page.items.map(summary)).toEqual([
      { playerId: null, eventKey: 'level_completed', accepted: false, codes: ['player.external_id_missing'] },
      {
        playerId: player,
        eventKey: 'level_completed',
        accepted: false,
        codes: ['event.property_type_mismatch'],
      },
      { playerId: player, eventKey: 'level_lost', accepted: false, codes: ['event.not_found'] },
    ]);
    expect(page.items[0]!.errors[0]!.path).toBe('playerId');
    expect(page.items[1]!.errors[0]).toEqual({
      code: 'event.property_type_mismatch',
      message: result.results[2]!.errors[0]!.message,
      path: 'properties.level',
    });
    expect(page.items[1]!.properties).toBe('{"level":"three"}');
    expect(page.items[2]!.errors[0]!.path).toBe('eventKey');
    expect(page.watchedUntil).toBeNull();
    expect(page.keeps).toBe(300);

    // The debugger opens: accepted items are recorded too, with their eventId.
    const watching = await recent(gateway, environmentId, '?watch=true');
    expect(Date.parse(watching.body.watchedUntil ?? '')).toBeGreaterThan(Date.now());
    const newest = watching.body.items[0]!.id;
    const accepted = await send(gateway, tenant.sandbox.apiKey, [good(player)]);
    const after = await recentOnce(gateway, environmentId, 1, `?after=${newest}`);
    expect(after.items).toHaveLength(1);
    expect(after.items[0]).toMatchObject({
      playerId: player,
      accepted: true,
      eventId: accepted.results[0]!.eventId,
      errors: [],
      properties: '{"level":3}',
      truncated: false,
    });
  });

  it('filters by outcome and player, and limits the page', async () => {
    const environmentId = tenant.live.environmentId;
    await recent(gateway, environmentId, '?watch=true');
    const [alice, bob] = [`alice-${crypto.randomUUID()}`, `bob-${crypto.randomUUID()}`];
    await send(gateway, tenant.live.apiKey, [
      good(alice),
      { eventKey: 'nope', playerId: alice },
      good(bob),
      { eventKey: 'nope', playerId: bob },
    ]);
    await recentOnce(gateway, environmentId, 4);
    const refused = (await recent(gateway, environmentId, '?outcome=refused')).body as RecentEventsPage;
    expect(refused.items.map((i) => [i.playerId, i.accepted])).toEqual([
      [bob, false],
      [alice, false],
    ]);
    const ofAlice = (await recent(gateway, environmentId, `?playerId=${alice}`)).body as RecentEventsPage;
    expect(ofAlice.items.map((i) => i.accepted)).toEqual([false, true]);
    const one = (await recent(gateway, environmentId, '?outcome=accepted&limit=1')).body as RecentEventsPage;
    expect(one.items.map((i) => [i.playerId, i.accepted])).toEqual([[bob, true]]);
  });

  it("never shows another environment's items", async () => {
    const other = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
    const marker = `other-${crypto.randomUUID()}`;
    await send(gateway, other.sandbox.apiKey, [{ eventKey: 'nope', playerId: marker }]);
    await recentOnce(gateway, other.sandbox.environmentId, 1);
    for (const environmentId of [tenant.sandbox.environmentId, tenant.live.environmentId]) {
      const page = (await recent(gateway, environmentId, '?limit=1000')).body as RecentEventsPage;
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.items.filter((i) => i.playerId === marker)).toEqual([]);
    }
  });

  it('refuses bad queries precisely, and operators of another organization', async () => {
    const environmentId = tenant.sandbox.environmentId;
    const refusals = {
      '?outcome=maybe': 'validation.outcome',
      '?limit=0': 'validation.limit',
      '?limit=1001': 'validation.limit',
      '?after=yesterday': 'validation.after',
    };
    for (const [query, code] of Object.entries(refusals)) {
      const { status, body } = await recent(gateway, environmentId, query);
      expect([status, body.code], query).toEqual([400, code]);
    }
    const unknown = await recent(gateway, crypto.randomUUID());
    expect([unknown.status, unknown.body.code]).toEqual([404, 'environment.not_found']);

    const outsider = await operatorWithRole(
      gateway.controlPlaneUrl,
      (await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN)).organizationId,
      'owner',
    );
    const refused = await outsider.call('GET', `/environments/${environmentId}/events/recent`);
    expect([refused.status, refused.body.code]).toEqual([403, 'admin.forbidden']);
    const viewer = await operatorWithRole(gateway.controlPlaneUrl, tenant.organizationId, 'viewer');
    const seen = await viewer.call('GET', `/environments/${environmentId}/events/recent?outcome=refused`);
    expect(seen.status).toBe(200);
    expect(seen.body.items.length).toBeGreaterThan(0);
  });
});

describe('the debugger with its Redis unreachable', () => {
  let gateway: InProcessGateway;
  let tenant: Tenant;

  beforeAll(async () => {
    // Nothing listens on port 1: every recording call fails (after ioredis's retries).
    gateway = await startGateway({
      recentEventsRedisUrl: 'redis://127.0.0.1:1',
      recentEvents: { maxPendingCalls: 2 },
    });
    tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
  });
  afterAll(() => gateway?.close());

  it('ingest answers as usual, holding at most the bound of recording calls', async () => {
    const player = `p-${crypto.randomUUID()}`;
    const batches = await Promise.all(
      Array.from({ length: 10 }, () =>
        send(gateway, tenant.sandbox.apiKey, [good(player), { eventKey: 'nope', playerId: player }]),
      ),
    );
    for (const batch of batches) {
      expect(batch.results.map((r) => [r.accepted, r.errors.map((e) => e.code)])).toEqual([
        [true, []],
        [false, ['event.not_found']],
      ]);
    }
    expect(gateway.recentEvents.pendingCalls()).toBeLessThanOrEqual(2);

    const { status, body } = await recent(gateway, tenant.sandbox.environmentId);
    expect([status, body.code]).toEqual([503, 'recent_events.unavailable']);
  });
});

function summary(item: RecentEvent) {
  return {
    playerId: item.playerId,
    eventKey: item.eventKey,
    accepted: item.accepted,
    codes: item.errors.map((e) => e.code),
  };
}
