import {
  createTenant,
  schemaPool,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, asAdminToken, type Console, operatorWithRole } from './support.ts';

/**
 * The operators' reads of a player and a board, and support's adjustment, against the whole stack:
 * the answers are those of the /v1 routes, roles and organizations are enforced, and every
 * adjustment is in the audit log.
 */

let stack: TestStack;
let tenant: Tenant;
let viewer: Console;
let support: Console;
let outsider: Console;
const playerId = `player-${crypto.randomUUID()}`;

const definition = {
  discovery: false,
  events: [
    { key: 'level_completed', active: true, properties: { level: { type: 'number', required: true } } },
  ],
  missions: [
    {
      key: 'first-level',
      name: 'First level',
      objectives: [{ key: 'one', event: 'level_completed' }],
      rewards: [{ points: 5 }],
    },
  ],
  leaderboards: [
    {
      key: 'levels',
      name: 'Levels',
      scoreSource: { type: 'Event', event: 'level_completed', property: 'level' },
      aggregation: 'Max',
      topSize: 10,
    },
  ],
};

const v1 = async (method: string, path: string, body?: unknown): Promise<Omit<Answer, 'headers'>> => {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

const playerPath = (rest = '') => `/environments/${tenant.sandbox.environmentId}/players/${playerId}${rest}`;

/** Polls the /v1 balance until it is `expected` (expect.poll works only inside a test). */
async function balanceReaches(expected: number) {
  const deadline = Date.now() + 30_000;
  let balance: unknown;
  while (Date.now() < deadline) {
    balance = (await v1('GET', `/v1/points?PlayerId=${playerId}`)).body.balance;
    if (balance === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the balance stayed ${String(balance)}, not ${expected}`);
}

beforeAll(async () => {
  stack = await startStack();
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: definition as never });
  viewer = await operatorWithRole(stack.controlPlaneUrl, tenant.organizationId, 'viewer');
  support = await operatorWithRole(stack.controlPlaneUrl, tenant.organizationId, 'support');
  const other = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
  outsider = await operatorWithRole(stack.controlPlaneUrl, other.organizationId, 'owner');

  // The player reads its missions (entering the mission), then completes it.
  expect((await v1('POST', '/v1/missions', { playerId })).status).toBe(200);
  const sent = await v1('POST', '/v1/events', {
    events: [{ eventKey: 'level_completed', playerId, properties: { level: 7 } }],
  });
  expect(sent.body).toMatchObject({ accepted: 1 });
  await balanceReaches(5);
}, 180_000);

afterAll(() => stack?.stop());

describe('reading a player', () => {
  it('finds the player, and answers 404 player.not_found for one never seen (creating nothing)', async () => {
    const found = await viewer.call('GET', playerPath());
    expect([found.status, found.body]).toEqual([200, { playerId, timeZone: null, attributes: {} }]);
    const unknown = `nobody-${crypto.randomUUID()}`;
    const path = `/environments/${tenant.sandbox.environmentId}/players/${unknown}`;
    const missing = await viewer.call('GET', path);
    expect([missing.status, missing.body.code]).toEqual([404, 'player.not_found']);
    expect((await viewer.call('GET', `${path}/points`)).body.code).toBe('player.not_found');
  });

  it('answers the balance, missions and streaks as /v1 does', async () => {
    const points = await viewer.call('GET', playerPath('/points'));
    expect(points.body).toEqual((await v1('GET', `/v1/points?PlayerId=${playerId}`)).body);
    const missions = await viewer.call('GET', playerPath('/missions'));
    expect(missions.status).toBe(200);
    expect(missions.body).toEqual((await v1('POST', '/v1/missions', { playerId })).body);
    expect(missions.body[0]).toMatchObject({ missionKey: 'first-level', status: 'Completed' });
    const streaks = await viewer.call('GET', playerPath('/streaks'));
    expect([streaks.status, streaks.body]).toEqual([200, []]);
  });

  it("shows a player's missions without entering the player into them", async () => {
    const quiet = `quiet-${crypto.randomUUID()}`;
    // Any /v1 call names the player into existence; reading the balance touches no mission.
    expect((await v1('GET', `/v1/points?PlayerId=${quiet}`)).status).toBe(200);
    const path = `/environments/${tenant.sandbox.environmentId}/players/${quiet}/missions`;
    const missions = await viewer.call('GET', path);
    expect([missions.status, missions.body[0]?.missionKey, missions.body[0]?.status]).toEqual([
      200,
      'first-level',
      'InProgress',
    ]);
    const rules = schemaPool('rules');
    try {
      const { rows } = await rules.query(
        'SELECT 1 FROM player_progress WHERE environment_id = $1 AND player_id = $2',
        [tenant.sandbox.environmentId, quiet],
      );
      expect(rows).toHaveLength(0);
    } finally {
      await rules.end();
    }
  });

  it('pages the journal newest first', async () => {
    const first = await viewer.call('GET', playerPath('/journal'));
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(1);
    expect(first.body.entries[0]).toMatchObject({ kind: 'Reward', amount: 5, balanceAfter: 5 });
    expect(first.body.nextBefore).toBeNull();
    const refused = await viewer.call('GET', playerPath('/journal?limit=0'));
    expect([refused.status, refused.body.code]).toEqual([400, 'validation.limit']);
  });

  it("shows the board as the player sees it, naming each row's player, and its periods", async () => {
    const board = `/environments/${tenant.sandbox.environmentId}/leaderboards/levels`;
    const view = await viewer.call('GET', `${board}?PlayerId=${playerId}&Top=5&Around=2`);
    expect(view.status).toBe(200);
    expect(view.body.leaderboard.me).toMatchObject({ rank: 1, score: 7 });
    // Operators see whose row it is; /v1 shows a player other rows by name only, and its own by isMe.
    expect(view.body.top[0]).toMatchObject({ rank: 1, score: 7, isMe: true, playerId });
    const asPlayer = await v1('GET', `/v1/leaderboards/levels?PlayerId=${playerId}&Top=5`);
    expect(asPlayer.body.top[0]).toMatchObject({ rank: 1, score: 7, isMe: true });
    expect(asPlayer.body.top[0]).not.toHaveProperty('playerId');
    const tooMany = await viewer.call('GET', `${board}?PlayerId=${playerId}&Around=26`);
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'validation.around']);
    const periods = await viewer.call('GET', `${board}/periods`);
    expect(periods.status).toBe(200);
    expect(periods.body.periods[0]).toMatchObject({ state: 'Open', participants: null });
    const unknown = await viewer.call(
      'GET',
      `/environments/${tenant.sandbox.environmentId}/leaderboards/nope/periods`,
    );
    expect([unknown.status, unknown.body.code]).toEqual([404, 'leaderboard.not_found']);
  });

  it("refuses another organization's operator", async () => {
    for (const path of [playerPath(), playerPath('/journal'), playerPath('/points')]) {
      const answer = await outsider.call('GET', path);
      expect([answer.status, answer.body.code]).toEqual([403, 'admin.forbidden']);
    }
  });
});

describe('a support adjustment', () => {
  const adjust = (who: Console, body: unknown, key?: string) =>
    who.call('POST', playerPath('/points/adjustments'), body, key ? { idempotencyKey: key } : {});

  it('credits with a reason, once per idempotency key, and records the operator and reason', async () => {
    const key = crypto.randomUUID();
    const first = await adjust(support, { amount: 20, reason: 'Lost a purchase in the outage' }, key);
    expect([first.status, first.body.amount, first.body.balance]).toEqual([200, 20, 25]);
    const again = await adjust(support, { amount: 20, reason: 'Lost a purchase in the outage' }, key);
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([
      200,
      first.body,
      'true',
    ]);
    expect((await viewer.call('GET', playerPath('/points'))).body.balance).toBe(25);
    const journal = await viewer.call('GET', playerPath('/journal?limit=1'));
    expect(journal.body.entries[0]).toMatchObject({
      transactionId: first.body.transactionId,
      kind: 'Adjustment',
      amount: 20,
      reason: 'Lost a purchase in the outage',
    });
    expect(journal.body.nextBefore).toEqual(expect.any(Number));
    const older = await viewer.call('GET', playerPath(`/journal?limit=1&before=${journal.body.nextBefore}`));
    expect(older.body.entries[0]).toMatchObject({ kind: 'Reward', amount: 5 });

    const log = await asAdminToken(
      stack.controlPlaneUrl,
      'GET',
      `/organizations/${tenant.organizationId}/audit-log`,
    );
    const entries = log.body.entries.filter(
      (e: { route: string }) =>
        e.route === '/environments/:environmentId/players/:playerId/points/adjustments',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'operator', email: support.session.operator.email },
      method: 'POST',
      targets: { environmentId: tenant.sandbox.environmentId, playerId },
      after: { amount: 20, reason: 'Lost a purchase in the outage', transactionId: first.body.transactionId },
    });
  });

  it('records an adjustment whose audit entry failed when its submission is retried, once', async () => {
    // The fault: the audit log refuses this organization's entries, after the ledger has applied.
    const controlPlane = schemaPool('control_plane');
    const fault = `audit_fault_${crypto.randomUUID().replaceAll('-', '')}`;
    await controlPlane.query(
      `CREATE FUNCTION ${fault}() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RAISE EXCEPTION 'injected audit failure'; END $$`,
    );
    await controlPlane.query(
      `CREATE TRIGGER ${fault} BEFORE INSERT ON audit_log FOR EACH ROW
         WHEN (NEW.organization_id = '${tenant.organizationId}') EXECUTE FUNCTION ${fault}()`,
    );
    const key = crypto.randomUUID();
    const body = { amount: 7, reason: 'Audit outage' };
    try {
      const failed = await adjust(support, body, key);
      expect([failed.status, failed.body.code]).toEqual([500, 'server.unexpected']);
    } finally {
      await controlPlane.query(`DROP TRIGGER ${fault} ON audit_log`);
      await controlPlane.query(`DROP FUNCTION ${fault}()`);
      await controlPlane.end();
    }
    // The ledger applied it; the retry is its replay, and is recorded now.
    const retried = await adjust(support, body, key);
    expect([retried.status, retried.headers.get('idempotent-replayed'), retried.body.balance]).toEqual([
      200,
      'true',
      32,
    ]);
    expect((await adjust(support, body, key)).status).toBe(200);
    const log = await asAdminToken(
      stack.controlPlaneUrl,
      'GET',
      `/organizations/${tenant.organizationId}/audit-log`,
    );
    const recorded = log.body.entries.filter(
      (e: { after: { idempotencyKey?: string } | null }) => e.after?.idempotencyKey === key,
    );
    expect(recorded).toHaveLength(1);
    expect(recorded[0].after).toMatchObject({ amount: 7, transactionId: retried.body.transactionId });
    expect((await viewer.call('GET', playerPath('/points'))).body.balance).toBe(32);
  });

  it('refuses what /v1 refuses, a missing reason or key, and changes nothing', async () => {
    const below = await adjust(support, { amount: -1000, reason: 'Too much' }, crypto.randomUUID());
    expect([below.status, below.body.code]).toEqual([409, 'points.insufficient_balance']);
    const zero = await adjust(support, { amount: 0, reason: 'Nothing' }, crypto.randomUUID());
    expect([zero.status, zero.body.code]).toEqual([400, 'points_adjustment.amount_zero']);
    const noReason = await adjust(support, { amount: 5 }, crypto.randomUUID());
    expect([noReason.status, noReason.body.code]).toEqual([400, 'validation.reason']);
    const noKey = await adjust(support, { amount: 5, reason: 'No key' });
    expect([noKey.status, noKey.body.code]).toEqual([400, 'validation.idempotency_key']);
    expect((await viewer.call('GET', playerPath('/points'))).body.balance).toBe(32);
  });

  it('is refused to a viewer and to another organization', async () => {
    const byViewer = await adjust(viewer, { amount: 5, reason: 'Viewer' }, crypto.randomUUID());
    expect([byViewer.status, byViewer.body.code, byViewer.body.errors[0].meta.requiredRole]).toEqual([
      403,
      'admin.forbidden',
      'support',
    ]);
    const byOutsider = await adjust(outsider, { amount: 5, reason: 'Outsider' }, crypto.randomUUID());
    expect([byOutsider.status, byOutsider.body.code]).toEqual([403, 'admin.forbidden']);
    expect((await viewer.call('GET', playerPath('/points'))).body.balance).toBe(32);
  });
});
