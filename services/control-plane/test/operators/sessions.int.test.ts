import { setTimeout as sleep } from 'node:timers/promises';
import { createPool, type Pool } from '@engage/postgres';
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
import {
  asAdminToken,
  call,
  joinByInvitation,
  operatorWithRole,
  PASSWORD,
  signIn,
  signInFrom,
} from './support.ts';

const FREE_FAILURES_PER_ACCOUNT = 10;
const FREE_FAILURES_PER_ADDRESS = 12;
let controlPlane: ServiceProcess;
let tenant: Tenant;
let pool: Pool;

beforeAll(async () => {
  controlPlane = await spawnService(
    stackConfig().repoRoot,
    'control-plane',
    serviceEnv(uniqueTopicPrefix(), {
      SIGN_IN_FREE_FAILURES_PER_ACCOUNT: String(FREE_FAILURES_PER_ACCOUNT),
      SIGN_IN_FREE_FAILURES_PER_ADDRESS: String(FREE_FAILURES_PER_ADDRESS),
      SIGN_IN_FIRST_DELAY_MS: '1000',
    }),
  );
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  pool = createPool({ url: stackConfig().databaseUrl, schema: 'control_plane', max: 2 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await controlPlane?.stop();
});

describe('console sessions', () => {
  it('signs in, reads the session, and signs out', async () => {
    const console = await operatorWithRole(controlPlane.url, tenant.organizationId, 'designer');
    expect(console.session).toMatchObject({
      operator: { email: expect.stringMatching(/^designer-/), displayName: expect.any(String) },
      memberships: [
        { organizationId: tenant.organizationId, organizationName: expect.any(String), role: 'designer' },
      ],
      csrfToken: expect.any(String),
    });
    const read = await console.call('GET', '/session');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(console.session);
    expect(read.headers.get('cache-control')).toBe('no-store');

    const out = await console.call('DELETE', '/session');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^engage_session=;.*Expires=Thu, 01 Jan 1970/);
    const after = await console.call('GET', '/session');
    expect([after.status, after.body.code]).toEqual([401, 'admin.unauthorized']);
    expect((await console.call('GET', `/organizations/${tenant.organizationId}`)).status).toBe(401);
  });

  it('sets the cookie HttpOnly, SameSite=Strict, on /, without Secure on loopback', async () => {
    const { cookie } = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    const email = `cookie-${crypto.randomUUID()}@example.test`;
    await joinByInvitation(controlPlane.url, tenant.organizationId, {
      email,
      role: 'viewer',
      password: PASSWORD,
    });
    const answer = await call(controlPlane.url, 'POST', '/session', { body: { email, password: PASSWORD } });
    const header = answer.headers.getSetCookie()[0]!;
    expect(header).toMatch(/^engage_session=[\w-]{43};/);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/');
    expect(header).not.toContain('Secure');
    expect(cookie).not.toBe(header.split(';')[0]);
    // Only a digest of the session id is stored.
    const { rows } = await pool.query('SELECT session_sha256 FROM operator_sessions');
    expect(JSON.stringify(rows)).not.toContain(header.split(';')[0]!.split('=')[1]);
  });

  it('answers a wrong password and an unknown email alike, with no cookie', async () => {
    const { session } = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    const wrongPassword = await call(controlPlane.url, 'POST', '/session', {
      body: { email: session.operator.email, password: 'not the password' },
    });
    const unknownEmail = await call(controlPlane.url, 'POST', '/session', {
      body: { email: `nobody-${crypto.randomUUID()}@example.test`, password: PASSWORD },
    });
    for (const answer of [wrongPassword, unknownEmail]) {
      expect([answer.status, answer.body.code]).toEqual([401, 'admin.sign_in_failed']);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
    expect(wrongPassword.body.errors).toEqual(unknownEmail.body.errors);
  });

  it('never counts correct passwords: fifteen sign-ins in a row all succeed', async () => {
    const { session } = await operatorWithRole(controlPlane.url, tenant.organizationId, 'owner');
    for (let i = 0; i < 15; i++) {
      const answer = await signInFrom(controlPlane.url, '127.0.0.4', {
        email: session.operator.email,
        password: PASSWORD,
      });
      expect(answer.status, `sign-in ${i + 1}`).toBe(200);
    }
  });

  it("delays the address that guesses an owner's password, not the owner signing in from another", async () => {
    const { session } = await operatorWithRole(controlPlane.url, tenant.organizationId, 'owner');
    const email = session.operator.email;
    const guesser = '127.0.0.2';
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      const wrong = await signInFrom(controlPlane.url, guesser, { email, password: `wrong password ${i}` });
      expect([wrong.status, wrong.body.code]).toEqual([401, 'admin.sign_in_failed']);
    }
    const delayed = await signInFrom(controlPlane.url, guesser, { email, password: PASSWORD });
    expect([delayed.status, delayed.body.code]).toEqual([429, 'admin.too_many_sign_in_attempts']);
    expect(delayed.headers.get('retry-after')).toBe('1');
    expect(delayed.body.errors[0].meta).toEqual({ retryAfterSeconds: 1 });

    // The owner, at an address without failures, signs in all the same.
    const owner = await signInFrom(controlPlane.url, '127.0.0.3', { email, password: PASSWORD });
    expect(owner.status).toBe(200);

    // Each further failure from the guessing address doubles its wait.
    await sleep(1000);
    const again = await signInFrom(controlPlane.url, guesser, { email, password: 'wrong password again' });
    expect(again.status).toBe(401);
    const longer = await signInFrom(controlPlane.url, guesser, { email, password: 'wrong password again' });
    expect([longer.status, longer.headers.get('retry-after')]).toEqual([429, '2']);
  });

  it('delays an address that fails for many emails, and no other address', async () => {
    const address = '127.0.0.5';
    // Made first: the address's delay runs from its last failure, and making an operator takes time.
    const { session } = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    const body = { email: session.operator.email, password: PASSWORD };
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS; i++) {
      const email = `guess-${i}-${crypto.randomUUID()}@example.test`;
      expect((await signInFrom(controlPlane.url, address, { email, password: PASSWORD })).status).toBe(401);
    }
    const delayed = await signInFrom(controlPlane.url, address, body);
    expect([delayed.status, delayed.headers.get('retry-after')]).toEqual([429, '1']);
    expect((await signInFrom(controlPlane.url, '127.0.0.6', body)).status).toBe(200);
  });

  it('refuses a write made with the cookie but without the CSRF token; bearer calls need none', async () => {
    const console = await operatorWithRole(controlPlane.url, tenant.organizationId, 'admin');
    const path = `/environments/${tenant.sandbox.environmentId}/api-keys`;
    const withoutToken: Record<string, string>[] = [
      { cookie: console.cookie },
      { cookie: console.cookie, 'x-csrf-token': 'forged' },
    ];
    for (const headers of withoutToken) {
      const refused = await call(controlPlane.url, 'POST', path, { body: {}, headers });
      expect([refused.status, refused.body.code]).toEqual([403, 'admin.csrf_failed']);
    }
    const before = await asAdminToken(controlPlane.url, 'GET', path);
    expect((await console.call('GET', path, undefined, { csrf: false })).status).toBe(200);
    expect((await console.call('POST', path, {})).status).toBe(201);
    expect((await asAdminToken(controlPlane.url, 'POST', path, {})).status).toBe(201);
    const after = await asAdminToken(controlPlane.url, 'GET', path);
    expect(after.body.apiKeys).toHaveLength(before.body.apiKeys.length + 2);
  });

  it('ends a session unused for the idle timeout, and one past its absolute expiry', async () => {
    for (const expire of [
      "UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes' WHERE operator_id = $1",
      "UPDATE operator_sessions SET expires_at = now() - interval '1 second' WHERE operator_id = $1",
    ]) {
      const console = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
      expect((await console.call('GET', '/session')).status).toBe(200);
      await pool.query(expire, [console.session.operator.id]);
      const answer = await console.call('GET', '/session');
      expect([answer.status, answer.body.code]).toEqual([401, 'admin.unauthorized']);
      const { rowCount } = await pool.query('SELECT 1 FROM operator_sessions WHERE operator_id = $1', [
        console.session.operator.id,
      ]);
      expect(rowCount).toBe(0);
    }
  });

  it('clears sessions nobody presents again at the next sign-in', async () => {
    const abandoned = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    await pool.query(
      "UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes' WHERE operator_id = $1",
      [abandoned.session.operator.id],
    );
    await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    const { rowCount } = await pool.query('SELECT 1 FROM operator_sessions WHERE operator_id = $1', [
      abandoned.session.operator.id,
    ]);
    expect(rowCount).toBe(0);
  });

  it('lists only the organizations the operator is a member of', async () => {
    const other = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
    const console = await operatorWithRole(controlPlane.url, tenant.organizationId, 'viewer');
    const listed = await console.call('GET', '/organizations?limit=500');
    expect(listed.body.organizations.map((o: { organizationId: string }) => o.organizationId)).toEqual([
      tenant.organizationId,
    ]);
    const foreign = await console.call('GET', `/organizations/${other.organizationId}`);
    expect([foreign.status, foreign.body.code]).toEqual([403, 'admin.forbidden']);
  });

  it('refuses a project key and a wrong token on the admin API', async () => {
    for (const authorization of [`Bearer ${tenant.sandbox.apiKey}`, 'Bearer wrong-token-0123456789abcdef']) {
      const answer = await call(controlPlane.url, 'GET', '/organizations', { headers: { authorization } });
      expect([answer.status, answer.body.code]).toEqual([401, 'admin.unauthorized']);
    }
    await expect(signIn(controlPlane.url, 'x@example.test', 'y')).rejects.toThrow(/401/);
  });
});
