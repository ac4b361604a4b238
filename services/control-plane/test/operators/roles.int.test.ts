import { ROLES, type Role } from '@engage/contracts/http/operators.ts';
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
import { ADMIN_ROUTE_RULES, roleSatisfies } from '../../src/domain/roles.ts';
import { type Answer, asAdminToken, type Console, operatorWithRole, PASSWORD, signIn } from './support.ts';

let controlPlane: ServiceProcess;
let tenant: Tenant;
const consoles = new Map<Role | 'outsider', Console>();

beforeAll(async () => {
  controlPlane = await spawnService(
    stackConfig().repoRoot,
    'control-plane',
    // Webhooks are stored but not sent: this control plane has no topics to consume.
    serviceEnv(uniqueTopicPrefix(), { WEBHOOKS_ENABLED: 'false' }),
  );
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  for (const role of ROLES)
    consoles.set(role, await operatorWithRole(controlPlane.url, tenant.organizationId, role));
  // A member of another organization only.
  const other = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  consoles.set('outsider', await operatorWithRole(controlPlane.url, other.organizationId, 'owner'));
  webhook = await newWebhook();
  delivery = (await asAdminToken(controlPlane.url, 'POST', `/webhooks/${webhook}/ping`)).body.id;
}, 180_000);

let webhook: string;
let delivery: string;
/** Endpoints the DELETE route removes, one per request (each caller must find one to be refused or allowed). */
const deletableWebhooks: string[] = [];
const newWebhook = async (): Promise<string> =>
  (
    await asAdminToken(controlPlane.url, 'POST', `/environments/${tenant.sandbox.environmentId}/webhooks`, {
      url: 'https://hooks.example.test/roles',
      eventTypes: ['points.adjusted'],
    })
  ).body.id;

afterAll(() => controlPlane?.stop());

/**
 * One request per admin route, harmless to repeat. A route added without a request here fails the
 * first test, so every route's rule is exercised.
 */
function requestFor(route: string): { method: string; path: string; body?: unknown } {
  const org = tenant.organizationId;
  const member = () => consoles.get('viewer')!.session.operator.id;
  const requests: Record<string, () => { method: string; path: string; body?: unknown }> = {
    'POST /session': () => ({
      method: 'POST',
      path: '/session',
      body: { email: 'x@example.test', password: 'y' },
    }),
    'GET /session': () => ({ method: 'GET', path: '/session' }),
    'DELETE /session': () => ({ method: 'DELETE', path: '/session' }), // each console signs in again after
    'GET /schemas/environment.json': () => ({ method: 'GET', path: '/schemas/environment.json' }),
    'GET /organizations': () => ({ method: 'GET', path: '/organizations' }),
    'POST /organizations': () => ({ method: 'POST', path: '/organizations', body: { name: 'by a role' } }),
    'GET /organizations/:organizationId': () => ({ method: 'GET', path: `/organizations/${org}` }),
    'GET /organizations/:organizationId/usage': () => ({
      method: 'GET',
      path: `/organizations/${org}/usage`,
    }),
    'PATCH /organizations/:organizationId': () => ({
      method: 'PATCH',
      path: `/organizations/${org}`,
      body: { billingStatus: 'active' },
    }),
    'POST /organizations/:organizationId/projects': () => ({
      method: 'POST',
      path: `/organizations/${org}/projects`,
      body: { name: 'by a role' },
    }),
    'GET /organizations/:organizationId/operators': () => ({
      method: 'GET',
      path: `/organizations/${org}/operators`,
    }),
    'GET /organizations/:organizationId/invitations': () => ({
      method: 'GET',
      path: `/organizations/${org}/invitations`,
    }),
    'POST /organizations/:organizationId/invitations': () => ({
      method: 'POST',
      path: `/organizations/${org}/invitations`,
      body: { email: `invited-${crypto.randomUUID()}@example.test`, role: 'viewer' },
    }),
    'DELETE /organizations/:organizationId/invitations/:invitationId': () => ({
      method: 'DELETE',
      path: `/organizations/${org}/invitations/${crypto.randomUUID()}`, // none: 404 once allowed
    }),
    'GET /invitations': () => ({ method: 'GET', path: '/invitations' }),
    // None addressed to the caller: 404 once allowed.
    'POST /invitations/:invitationId/accept': () => ({
      method: 'POST',
      path: `/invitations/${crypto.randomUUID()}/accept`,
    }),
    'POST /invitations/:invitationId/decline': () => ({
      method: 'POST',
      path: `/invitations/${crypto.randomUUID()}/decline`,
    }),
    'POST /invitations/accept': () => ({
      method: 'POST',
      path: '/invitations/accept',
      body: { token: 'no such token', password: PASSWORD },
    }),
    'PATCH /organizations/:organizationId/operators/:operatorId': () => ({
      method: 'PATCH',
      path: `/organizations/${org}/operators/${member()}`,
      body: { role: 'viewer' },
    }),
    'DELETE /organizations/:organizationId/operators/:operatorId': () => ({
      method: 'DELETE',
      path: `/organizations/${org}/operators/${crypto.randomUUID()}`, // not a member: 404 once allowed
    }),
    'GET /organizations/:organizationId/audit-log': () => ({
      method: 'GET',
      path: `/organizations/${org}/audit-log`,
    }),
    'GET /projects/:projectId': () => ({ method: 'GET', path: `/projects/${tenant.projectId}` }),
    'POST /environments/:environmentId/api-keys': () => ({
      method: 'POST',
      path: `/environments/${tenant.sandbox.environmentId}/api-keys`,
      body: {},
    }),
    'GET /environments/:environmentId/api-keys': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/api-keys`,
    }),
    'DELETE /api-keys/:apiKeyId': () => ({ method: 'DELETE', path: `/api-keys/${revocableKey}` }),
    'GET /environments/:environmentId/definition': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/definition`,
    }),
    'GET /environments/:environmentId/definition/history': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/definition/history`,
    }),
    'PUT /environments/:environmentId/definition': () => ({
      method: 'PUT',
      path: `/environments/${tenant.sandbox.environmentId}/definition`,
      body: { version: 1, events: [{ key: 'level_up' }] },
    }),
    'GET /environments/:environmentId/events/recent': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/events/recent`,
    }),
    'POST /environments/:environmentId/leaderboards/:leaderboardKey/settle': () => ({
      // Live: refused as leaderboard.settle_sandbox_only once past the role check.
      method: 'POST',
      path: `/environments/${tenant.live.environmentId}/leaderboards/weekly/settle`,
    }),
    'GET /environments/:environmentId/players': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/players?idPrefix=nobody`,
    }),
    // An unknown player or board: 404 once past the role check.
    'GET /environments/:environmentId/players/:playerId': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/players/nobody`,
    }),
    'GET /environments/:environmentId/players/:playerId/points': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/players/nobody/points`,
    }),
    'GET /environments/:environmentId/players/:playerId/journal': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/players/nobody/journal`,
    }),
    'GET /environments/:environmentId/players/:playerId/missions': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/players/nobody/missions`,
    }),
    'GET /environments/:environmentId/players/:playerId/streaks': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/players/nobody/streaks`,
    }),
    'POST /environments/:environmentId/players/:playerId/points/adjustments': () => ({
      method: 'POST',
      path: `/environments/${tenant.sandbox.environmentId}/players/nobody/points/adjustments`,
      body: { amount: 1, reason: 'roles' },
    }),
    'GET /environments/:environmentId/leaderboards/:leaderboardKey': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/leaderboards/weekly?PlayerId=nobody`,
    }),
    'GET /environments/:environmentId/leaderboards/:leaderboardKey/periods': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/leaderboards/weekly/periods`,
    }),
    'POST /environments/:environmentId/webhooks': () => ({
      method: 'POST',
      path: `/environments/${tenant.sandbox.environmentId}/webhooks`,
      body: { url: 'https://hooks.example.test/roles', eventTypes: ['mission.completed'] },
    }),
    'GET /environments/:environmentId/webhooks': () => ({
      method: 'GET',
      path: `/environments/${tenant.sandbox.environmentId}/webhooks`,
    }),
    'GET /webhooks/:webhookId': () => ({ method: 'GET', path: `/webhooks/${webhook}` }),
    'PATCH /webhooks/:webhookId': () => ({
      method: 'PATCH',
      path: `/webhooks/${webhook}`,
      body: { description: 'roles' },
    }),
    'DELETE /webhooks/:webhookId': () => ({ method: 'DELETE', path: `/webhooks/${deletableWebhooks.pop()}` }),
    'POST /webhooks/:webhookId/rotate-secret': () => ({
      method: 'POST',
      path: `/webhooks/${webhook}/rotate-secret`,
      body: { overlapSeconds: 60 },
    }),
    'GET /webhooks/:webhookId/deliveries': () => ({ method: 'GET', path: `/webhooks/${webhook}/deliveries` }),
    'POST /webhooks/:webhookId/deliveries/:deliveryId/replay': () => ({
      method: 'POST',
      path: `/webhooks/${webhook}/deliveries/${delivery}/replay`,
    }),
    'POST /webhooks/:webhookId/ping': () => ({ method: 'POST', path: `/webhooks/${webhook}/ping` }),
  };
  const build = requests[route];
  if (!build) throw new Error(`no request for admin route ${route}: add one to this test`);
  return build();
}

let revocableKey: string;

describe('roles on every admin route', () => {
  it('has a request for every route of the table', () => {
    for (const route of Object.keys(ADMIN_ROUTE_RULES)) expect(() => requestFor(route)).not.toThrow();
  });

  for (const [route, rule] of Object.entries(ADMIN_ROUTE_RULES)) {
    it(`${route}: ${rule}`, async () => {
      revocableKey = (
        await asAdminToken(
          controlPlane.url,
          'POST',
          `/environments/${tenant.sandbox.environmentId}/api-keys`,
          {},
        )
      ).body.apiKeyId;
      if (route === 'DELETE /webhooks/:webhookId') {
        for (let i = 0; i <= consoles.size; i++) deletableWebhooks.push(await newWebhook());
      }
      for (const [who, console] of consoles) {
        const { method, path, body } = requestFor(route);
        const answer = await console.call(method, path, body);
        const allowed =
          rule === 'public' ||
          rule === 'signed-in' ||
          (rule !== 'admin-token' && who !== 'outsider' && roleSatisfies(who, rule));
        const label = `${who} ${answer.status} ${JSON.stringify(answer.body)}`;
        if (allowed) {
          expect(isForbidden(answer), label).toBe(false);
          expect(answer.body?.code, label).not.toBe('admin.unauthorized');
        } else {
          expect([answer.status, answer.body.code, answer.body.errors[0].meta.requiredRole], label).toEqual([
            403,
            'admin.forbidden',
            rule,
          ]);
        }
      }
      if (route === 'DELETE /session') {
        for (const [who, console] of consoles)
          consoles.set(who, await signIn(controlPlane.url, console.session.operator.email, PASSWORD));
      }
      // The admin token is never refused for want of a role.
      const { method, path, body } = requestFor(route);
      const automation = await asAdminToken(controlPlane.url, method, path, body);
      expect(isForbidden(automation), JSON.stringify(automation.body)).toBe(false);
    });
  }
});

describe('what the roles mean', () => {
  it('a Viewer cannot create keys', async () => {
    const answer = await consoles
      .get('viewer')!
      .call('POST', `/environments/${tenant.live.environmentId}/api-keys`, {});
    expect([answer.status, answer.body.errors[0].meta]).toEqual([403, { requiredRole: 'admin' }]);
  });

  it('a Designer applies content but cannot switch discovery; an Admin can', async () => {
    const path = `/environments/${tenant.live.environmentId}/definition`;
    const designer = consoles.get('designer')!;
    const content = await designer.call('PUT', path, { version: 1, events: [{ key: 'quest_done' }] });
    expect(content.status).toBe(200);
    const discovery = await designer.call('PUT', path, { version: 1, discovery: true });
    expect([discovery.status, discovery.body.code, discovery.body.errors[0].meta]).toEqual([
      403,
      'admin.forbidden',
      { requiredRole: 'admin' },
    ]);
    // Naming discovery as it already is changes nothing: content only.
    expect((await designer.call('PUT', path, { version: 1, discovery: false })).status).toBe(200);
    const admin = await consoles.get('admin')!.call('PUT', path, { version: 1, discovery: true });
    expect([admin.status, admin.body.changed]).toEqual([200, true]);
  });

  it('Support cannot apply content', async () => {
    const answer = await consoles
      .get('support')!
      .call('PUT', `/environments/${tenant.live.environmentId}/definition`, { version: 1, events: [] });
    expect([answer.status, answer.body.errors[0].meta]).toEqual([403, { requiredRole: 'designer' }]);
  });
});

function isForbidden(answer: Answer): boolean {
  return answer.status === 403 && answer.body?.code === 'admin.forbidden';
}
