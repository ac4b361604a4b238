import { type EnvironmentContext, encodePlayerContext, INTERNAL_HEADERS } from '@engage/contracts';
import { InternalSigner } from '@engage/kit';
import {
  createTenant,
  internalHeaders,
  type ServiceName,
  signedAsGateway,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Nobody but the gateway speaks to rules, ledger and query: a call straight to their ports with
 * the environment and player headers filled in by hand is refused, signed or not, unless the
 * gateway signed exactly that call within the last 30 seconds.
 */
const PLAYER = 'victim';
const MINT = { playerId: PLAYER, amount: 1_000_000, reason: 'forged' };
const ADJUST = '/v1/points/adjustments';

describe('calls that skip the gateway', () => {
  let stack: TestStack;
  let victim: Tenant;
  let env: EnvironmentContext;

  const viaGateway = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${victim.live.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const balance = async () => (await viaGateway('GET', `/v1/points?PlayerId=${PLAYER}`)).body.balance;
  const direct = async (
    service: ServiceName,
    call: { method: string; url: string; headers: Record<string, string>; body?: string },
  ) => {
    const res = await fetch(`${stack.services[service]!.url}${call.url}`, call);
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: (await res.json()) as Record<string, unknown>,
    };
  };
  const mint = (headers: Record<string, string>, body: unknown = MINT) => ({
    method: 'POST',
    url: ADJUST,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const signedMint = (playerId = PLAYER, now?: number) =>
    signedAsGateway(
      {
        method: 'POST',
        url: ADJUST,
        headers: internalHeaders(env, { id: playerId }),
        body: { ...MINT, playerId },
      },
      now,
    );

  beforeAll(async () => {
    stack = await startStack();
    victim = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
    env = {
      organizationId: victim.organizationId,
      environmentId: victim.live.environmentId,
      environmentKind: 'Live',
    };
    expect((await viaGateway('POST', ADJUST, { playerId: PLAYER, amount: 5 })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const expectRefused = (answer: Awaited<ReturnType<typeof direct>>, reason: string) => {
    expect(answer.status).toBe(401);
    expect(answer.type).toContain('application/problem+json');
    expect(answer.body).toMatchObject({
      status: 401,
      code: 'internal.unauthorized',
      errors: [{ code: 'internal.unauthorized', meta: { reason } }],
    });
  };

  it('refuses an unsigned call to the ledger, and the balance stays as it was', async () => {
    expectRefused(await direct('ledger', mint(internalHeaders(env, { id: PLAYER }))), 'unsigned');
    expect(await balance()).toBe(5);
  });

  it('refuses a call signed with another secret', async () => {
    const forger = new InternalSigner('not-the-secret-of-this-deployment-0123456789');
    const call = mint(internalHeaders(env, { id: PLAYER }));
    const headers = forger.sign({
      method: call.method,
      url: call.url,
      headers: call.headers,
      body: call.body,
    });
    expectRefused(await direct('ledger', { ...call, headers }), 'mismatch');
    expect(await balance()).toBe(5);
  });

  it('refuses a signature older than its window', async () => {
    expectRefused(await direct('ledger', signedMint(PLAYER, Date.now() - 60_000)), 'outside_window');
    expect(await balance()).toBe(5);
  });

  it('refuses a captured signature replayed for another player, environment, path or body', async () => {
    const captured = signedMint('someone-else');
    const otherPlayer = {
      ...captured,
      headers: {
        ...captured.headers,
        [INTERNAL_HEADERS.player]: encodePlayerContext({
          id: PLAYER,
          timeZone: null,
          attributes: {},
          isNew: false,
        }),
      },
      body: JSON.stringify(MINT),
    };
    const otherEnvironment = {
      ...captured,
      headers: { ...captured.headers, [INTERNAL_HEADERS.environmentId]: crypto.randomUUID() },
    };
    const honest = signedMint();
    const otherBody = { ...honest, body: JSON.stringify({ ...MINT, amount: 999_999 }) };
    const otherPath = {
      ...signedAsGateway({
        method: 'POST',
        url: '/v1/marketplace-items/anything/purchases',
        headers: internalHeaders(env, { id: PLAYER }),
        body: MINT,
      }),
      url: ADJUST,
    };
    const withoutBody = { ...honest, body: undefined };

    for (const [forged, reason] of [
      [otherPlayer, 'mismatch'],
      [otherEnvironment, 'mismatch'],
      [otherBody, 'body'],
      [otherPath, 'mismatch'],
      [withoutBody, 'body'],
    ] as const) {
      expectRefused(await direct('ledger', forged), reason);
    }
    expect(await balance()).toBe(5);
  });

  it('refuses unsigned definitions and reads on rules and query; they change nothing', async () => {
    const missions = [{ key: 'forged', name: 'Forged', objectives: [] }];
    const boards = [{ key: 'forged', name: 'Forged' }];
    for (const [service, section, value] of [
      ['rules', 'missions', missions],
      ['query', 'leaderboards', boards],
    ] as const) {
      const put = await direct(service, {
        method: 'PUT',
        url: `/internal/v1/environments/${env.environmentId}/definition/${section}`,
        headers: { ...internalHeaders(env), 'content-type': 'application/json' },
        body: JSON.stringify(value),
      });
      expectRefused(put, 'unsigned');
    }
    expectRefused(
      await direct('rules', {
        method: 'POST',
        url: '/v1/missions',
        headers: { ...internalHeaders(env, { id: PLAYER }), 'content-type': 'application/json' },
        body: JSON.stringify({ playerId: PLAYER }),
      }),
      'unsigned',
    );
    expectRefused(
      await direct('query', {
        method: 'GET',
        url: `/v1/leaderboards/forged?PlayerId=${PLAYER}`,
        headers: internalHeaders(env, { id: PLAYER }),
      }),
      'unsigned',
    );
    const read = await viaGateway('POST', '/v1/missions', { playerId: PLAYER });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('forged');
    expect((await viaGateway('GET', `/v1/leaderboards/forged?PlayerId=${PLAYER}`)).status).toBe(404);
  });

  it('still answers the gateway, and the probes of anyone', async () => {
    expect((await viaGateway('POST', ADJUST, { playerId: PLAYER, amount: 2 })).status).toBe(200);
    expect(await balance()).toBe(7);
    for (const service of ['rules', 'ledger', 'query'] as const) {
      for (const probe of ['/healthz', '/readyz']) {
        expect((await fetch(`${stack.services[service]!.url}${probe}`)).status).toBe(200);
      }
    }
  });
});
