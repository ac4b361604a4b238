import { createCatalogTopics, freePorts } from '@engage/devstack';
import {
  createTenant,
  eventually,
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  TEST_ADMIN_TOKEN,
  type Tenant,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlowLedger } from './support/slow-ledger.ts';

/**
 * The console's usage against limits, read through the admin API of a real gateway process: the
 * same counters that admit players and Sandbox events, and the in-flight limit's refusals of the
 * day. Forwarded GET /v1/points calls are held open by a slow stand-in for the ledger.
 */
describe('an organization’s usage against its limits', () => {
  const ledger = new SlowLedger();
  const prefix = uniqueTopicPrefix();
  let gateway: ServiceProcess;
  let controlPlane: ServiceProcess | undefined;
  let tenant: Tenant;

  const usage = async (organizationId = tenant.organizationId) => {
    const response = await fetch(`${controlPlane!.url}/admin/v1/organizations/${organizationId}/usage`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    // biome-ignore lint/suspicious/noExplicitAny: a usage or a problem document, by status
    return { status: response.status, body: (await response.json()) as any };
  };
  const events = (apiKey: string, players: string[]) =>
    fetch(`${gateway.url}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: players.map((playerId) => ({ eventKey: 'level_completed', playerId, properties: {} })),
      }),
    });
  const points = (apiKey: string) =>
    fetch(`${gateway.url}/v1/points?PlayerId=held-player`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });

  beforeAll(async () => {
    await ledger.listen();
    await createCatalogTopics(stackConfig().brokers, prefix);
    // The gateway records discoveries at the control plane: its ports are chosen first.
    const [port, metricsPort] = await freePorts(2);
    gateway = await spawnService(
      stackConfig().repoRoot,
      'gateway',
      serviceEnv(prefix, {
        LEDGER_URL: ledger.url,
        ORGANIZATION_LIMIT_MAX_WAIT_MS: '500',
        CONTROL_PLANE_URL: `http://127.0.0.1:${port}`,
      }),
    );
    controlPlane = await spawnService(
      stackConfig().repoRoot,
      'control-plane',
      serviceEnv(prefix, { GATEWAY_URL: gateway.url }),
      { port, metricsPort },
    );
    tenant = await createTenant(controlPlane!.url, TEST_ADMIN_TOKEN, {
      liveMonthlyActivePlayersCap: 5,
      definition: { discovery: true },
    });
  }, 120_000);

  afterAll(async () => {
    ledger.open();
    await gateway?.stop();
    await controlPlane?.stop();
    await ledger.close();
  });

  it('starts at zero, with the contract’s limits and the organization’s cap', async () => {
    const { status, body } = await usage();
    expect(status).toBe(200);
    const today = new Date().toISOString();
    expect(body).toEqual({
      organizationId: tenant.organizationId,
      month: today.slice(0, 7),
      day: today.slice(0, 10),
      liveMonthlyActivePlayers: { used: 0, limit: 5 },
      requestsInFlight: { limit: 16, refusedToday: 0 },
      sandboxes: [
        {
          projectId: tenant.projectId,
          environmentId: tenant.sandbox.environmentId,
          monthlyActivePlayers: { used: 0, limit: 100 },
          eventsToday: { used: 0, limit: 10_000 },
        },
      ],
    });
  });

  it('counts the players and events the environments admitted', async () => {
    expect((await events(tenant.sandbox.apiKey, ['a', 'b', 'c', 'a', 'b'])).status).toBe(200);
    expect((await events(tenant.live.apiKey, ['x', 'y', 'x'])).status).toBe(200);
    const { body } = await usage();
    expect(body.liveMonthlyActivePlayers).toEqual({ used: 2, limit: 5 });
    expect(body.sandboxes[0].monthlyActivePlayers).toEqual({ used: 3, limit: 100 });
    expect(body.sandboxes[0].eventsToday).toEqual({ used: 5, limit: 10_000 });
  });

  it('counts the requests the in-flight limit refused today', async () => {
    const held = Array.from({ length: 16 }, () => points(tenant.live.apiKey));
    await eventually('16 requests running', async () => (ledger.inFlight === 16 ? true : undefined));
    // Beyond 16 running, each either waits its 500 ms and is refused, or is refused at once.
    const refused = await Promise.all(Array.from({ length: 11 }, () => points(tenant.live.apiKey)));
    expect(refused.map((r) => r.status)).toEqual(Array(11).fill(429));
    ledger.open();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(16).fill(200));

    // Each replica adds what it counted once a second.
    const counted = await eventually('the 11 refusals counted', async () => {
      const { body } = await usage();
      return body.requestsInFlight.refusedToday === 11 ? body : undefined;
    });
    expect(counted.requestsInFlight).toEqual({ limit: 16, refusedToday: 11 });
    // The held calls' player joined the Live month; the Sandbox did not change.
    expect(counted.liveMonthlyActivePlayers).toEqual({ used: 3, limit: 5 });
    expect(counted.sandboxes[0].eventsToday.used).toBe(5);
  });

  it('answers 404 for an organization that does not exist', async () => {
    const { status, body } = await usage(crypto.randomUUID());
    expect(status).toBe(404);
    expect(body.code).toBe('organization.not_found');
  });
});
