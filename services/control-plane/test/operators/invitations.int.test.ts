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
  type Answer,
  asAdminToken,
  type Console,
  call,
  operatorWithRole,
  PASSWORD,
  signIn,
} from './support.ts';

let controlPlane: ServiceProcess;
let tenant: Tenant;
let owner: Console;
let pool: Pool;

beforeAll(async () => {
  controlPlane = await spawnService(stackConfig().repoRoot, 'control-plane', serviceEnv(uniqueTopicPrefix()));
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  owner = await operatorWithRole(controlPlane.url, tenant.organizationId, 'owner');
  pool = createPool({ url: stackConfig().databaseUrl, schema: 'control_plane', max: 2 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await controlPlane?.stop();
});

const invite = (email: string, role = 'viewer', by: Console = owner) =>
  by.call('POST', `/organizations/${tenant.organizationId}/invitations`, { email, role });
const acceptWithToken = (body: { token: string; password: string; displayName?: string }) =>
  call(controlPlane.url, 'POST', '/invitations/accept', { body });
const membersOf = async (organizationId = tenant.organizationId) =>
  (
    (await asAdminToken(controlPlane.url, 'GET', `/organizations/${organizationId}/operators`)).body
      .operators as {
      email: string;
    }[]
  ).map((operator) => operator.email);
const newEmail = (what: string) => `${what}-${crypto.randomUUID()}@example.test`;

/** An operator of another organization: an account the owner here has no say over. */
async function outsider(): Promise<Console> {
  const other = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
  return operatorWithRole(controlPlane.url, other.organizationId, 'owner');
}

/** The answer with what differs per invitation (ids, times, email, token) blanked. */
const shapeOf = (answer: Answer) => ({
  status: answer.status,
  body: Object.fromEntries(
    Object.entries(answer.body).map(([key, value]) => [
      key,
      ['role', 'organizationId'].includes(key) ? value : typeof value,
    ]),
  ),
  headers: [...answer.headers.keys()].filter((name) => !['date', 'content-length'].includes(name)),
});

describe('invitations', () => {
  it('answers alike whether or not the email has an account, and adds nobody', async () => {
    const account = await outsider();
    const known = await invite(account.session.operator.email);
    const unknown = await invite(newEmail('nobody'));
    expect(known.status).toBe(201);
    expect(shapeOf(known)).toEqual(shapeOf(unknown));
    expect(Object.keys(known.body).sort()).toEqual([
      'createdAtUtc',
      'email',
      'expiresAtUtc',
      'invitationId',
      'organizationId',
      'organizationName',
      'role',
      'token',
    ]);
    // Invited is not joined: the account's memberships are its own until it accepts.
    expect(await membersOf()).not.toContain(account.session.operator.email);
    expect((await account.call('GET', '/session')).body.memberships).toHaveLength(1);
    // Only the token's digest is stored.
    const { rows } = await pool.query('SELECT * FROM operator_invitations WHERE invitation_id = $1', [
      known.body.invitationId,
    ]);
    expect(JSON.stringify(rows)).not.toContain(known.body.token);
  });

  it('lets an existing account accept signed in, and records the join in the audit log', async () => {
    const account = await outsider();
    const { email, id: operatorId } = account.session.operator;
    const invited = await invite(email, 'designer');
    const mine = await account.call('GET', '/invitations');
    expect(mine.body.invitations).toEqual([
      expect.objectContaining({
        invitationId: invited.body.invitationId,
        organizationId: tenant.organizationId,
        organizationName: expect.any(String),
        role: 'designer',
      }),
    ]);
    expect(JSON.stringify(mine.body)).not.toContain(invited.body.token);

    const accepted = await account.call('POST', `/invitations/${invited.body.invitationId}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      organizationId: tenant.organizationId,
      organizationName: expect.any(String),
      role: 'designer',
    });
    expect(await membersOf()).toContain(email);
    expect((await account.call('GET', '/invitations')).body.invitations).toEqual([]);
    const log = await asAdminToken(
      controlPlane.url,
      'GET',
      `/organizations/${tenant.organizationId}/audit-log?order=newest&limit=1`,
    );
    expect(log.body.entries[0]).toMatchObject({
      actor: { kind: 'operator', operatorId, email },
      route: '/invitations/:invitationId/accept',
      targets: { operatorId, invitationId: invited.body.invitationId },
      after: { operatorId, role: 'designer' },
      outcome: 'allowed',
    });
    // Answered: neither it nor its token accepts again.
    const again = await account.call('POST', `/invitations/${invited.body.invitationId}/accept`);
    expect([again.status, again.body.code]).toEqual([404, 'invitation.not_found']);
    expect((await acceptWithToken({ token: invited.body.token, password: PASSWORD })).status).toBe(404);
    // A member is not invited again.
    const member = await invite(email);
    expect([member.status, member.body.code]).toEqual([409, 'operator.already_member']);
  });

  it('lets the invitee decline, and nobody else answer', async () => {
    const account = await outsider();
    const stranger = await outsider();
    const invited = await invite(account.session.operator.email);
    const path = `/invitations/${invited.body.invitationId}`;
    for (const answer of [
      await stranger.call('POST', `${path}/accept`),
      await stranger.call('POST', `${path}/decline`),
      await asAdminToken(controlPlane.url, 'POST', `${path}/accept`),
    ]) {
      expect([answer.status, answer.body.code]).toEqual([404, 'invitation.not_found']);
    }
    expect((await stranger.call('GET', '/invitations')).body.invitations).toEqual([]);

    expect((await account.call('POST', `${path}/decline`)).status).toBe(204);
    expect(await membersOf()).not.toContain(account.session.operator.email);
    expect((await account.call('POST', `${path}/accept`)).status).toBe(404);
    expect((await acceptWithToken({ token: invited.body.token, password: PASSWORD })).status).toBe(404);
  });

  it("creates a new account with the token, refusing weak passwords with the reason's code", async () => {
    const email = newEmail('joiner');
    const { token } = (await invite(email, 'support')).body;
    const weak: [string, string][] = [
      ['qwerty123456', 'operator.password_common'],
      [`${email.split('@')[0]} is me`, 'operator.password_contains_email'],
      ['abcabcabcabc', 'operator.password_repetitive'],
    ];
    for (const [password, code] of weak) {
      const refused = await acceptWithToken({ token, password });
      expect([refused.status, refused.body.code], password).toEqual([400, code]);
    }
    const short = await acceptWithToken({ token, password: 'short' });
    expect([short.status, short.body.code]).toEqual([400, 'validation.password']);
    // Refused: no account, and the invitation still pending.
    await expect(signIn(controlPlane.url, email, 'qwerty123456')).rejects.toThrow(/401/);
    expect(await membersOf()).not.toContain(email);

    const accepted = await acceptWithToken({ token, password: PASSWORD, displayName: 'Joiner' });
    expect([accepted.status, accepted.body.role]).toEqual([200, 'support']);
    const joined = await signIn(controlPlane.url, email, PASSWORD);
    expect(joined.session.operator.displayName).toBe('Joiner');
    expect(joined.session.memberships).toEqual([expect.objectContaining({ role: 'support' })]);
  });

  it("asks an existing account's password with the token", async () => {
    const account = await outsider();
    const { token } = (await invite(account.session.operator.email)).body;
    const wrong = await acceptWithToken({ token, password: 'not the password at all' });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'admin.sign_in_failed']);
    expect(await membersOf()).not.toContain(account.session.operator.email);
    // The account's password stays its own: the token does not set it.
    await expect(
      signIn(controlPlane.url, account.session.operator.email, 'not the password at all'),
    ).rejects.toThrow();

    expect((await acceptWithToken({ token, password: PASSWORD })).status).toBe(200);
    expect(await membersOf()).toContain(account.session.operator.email);
  });

  it('lapses at its expiry, is replaced by a new invitation of the email, and is revoked by an owner', async () => {
    const email = newEmail('lapsing');
    const first = (await invite(email)).body;
    const second = (await invite(email, 'admin')).body;
    // The newer invitation replaced the first.
    expect((await acceptWithToken({ token: first.token, password: PASSWORD })).status).toBe(404);
    const pending = await owner.call('GET', `/organizations/${tenant.organizationId}/invitations`);
    const ids = pending.body.invitations.map((i: { invitationId: string }) => i.invitationId);
    expect(ids).toContain(second.invitationId);
    expect(ids).not.toContain(first.invitationId);

    await pool.query(
      "UPDATE operator_invitations SET expires_at = now() - interval '1 second' WHERE invitation_id = $1",
      [second.invitationId],
    );
    const lapsed = await acceptWithToken({ token: second.token, password: PASSWORD });
    expect([lapsed.status, lapsed.body.code]).toEqual([404, 'invitation.not_found']);

    const third = (await invite(email)).body;
    const path = `/organizations/${tenant.organizationId}/invitations/${third.invitationId}`;
    expect((await owner.call('DELETE', path)).status).toBe(204);
    expect((await owner.call('DELETE', path)).status).toBe(404);
    expect((await acceptWithToken({ token: third.token, password: PASSWORD })).status).toBe(404);
    expect(await membersOf()).not.toContain(email);
  });

  it('creates one account when two invitations of a new email are accepted at once', async () => {
    const email = newEmail('twice');
    const other = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
    const tokens = [
      (await invite(email)).body.token,
      (
        await asAdminToken(controlPlane.url, 'POST', `/organizations/${other.organizationId}/invitations`, {
          email,
          role: 'viewer',
        })
      ).body.token,
    ];
    const answers = await Promise.all(tokens.map((token) => acceptWithToken({ token, password: PASSWORD })));
    // Each joins, or is refused as a race to resend, never a server error.
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 409) {
        expect(answer.body.code).toBe('invitation.concurrent_update');
        expect((await acceptWithToken({ token: tokens[i]!, password: PASSWORD })).status).toBe(200);
      }
    }
    const { rows } = await pool.query('SELECT count(*)::int AS accounts FROM operators WHERE email = $1', [
      email,
    ]);
    expect(rows[0].accounts).toBe(1);
    expect(await membersOf()).toContain(email);
    expect(await membersOf(other.organizationId)).toContain(email);
  });

  it('answers an unknown token as not found, whatever the password', async () => {
    const answer = await acceptWithToken({ token: 'no-such-token', password: PASSWORD });
    expect([answer.status, answer.body.code]).toEqual([404, 'invitation.not_found']);
  });
});
