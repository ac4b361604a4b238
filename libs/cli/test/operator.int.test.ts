import { spawn } from 'node:child_process';
import { join } from 'node:path';
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

let controlPlane: ServiceProcess;
let tenant: Tenant;

beforeAll(async () => {
  controlPlane = await spawnService(stackConfig().repoRoot, 'control-plane', serviceEnv(uniqueTopicPrefix()));
  tenant = await createTenant(controlPlane.url, TEST_ADMIN_TOKEN);
}, 120_000);

afterAll(() => controlPlane?.stop());

/** Runs the `engage` binary with `stdin` piped in, as a script would. */
function engage(
  args: string[],
  stdin: string,
  credential: Record<string, string> = { ENGAGE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
): Promise<{ code: number | null; out: string; err: string }> {
  const main = join(stackConfig().repoRoot, 'libs', 'cli', 'src', 'main.ts');
  const { ENGAGE_ADMIN_TOKEN: _ignored, ...environment } = process.env;
  const child = spawn(process.execPath, [main, '--url', controlPlane.url, ...args], {
    env: { ...environment, ...credential },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk;
  });
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

/** Runs `engage` as the invitee would: without the admin token. */
function engageWithoutToken(args: string[], stdin: string) {
  return engage(args, stdin, {});
}

describe('engage operator', () => {
  it('invites an email; the invitee accepts with the token and the password from stdin, then signs in', async () => {
    const email = `cli-${crypto.randomUUID()}@example.test`;
    const password = 'a password read from stdin';
    const invited = await engage(
      ['operator', 'invite', '--organization', tenant.organizationId, '--email', email, '--role', 'designer'],
      '',
    );
    expect(invited, invited.err).toMatchObject({ code: 0 });
    const invitation = JSON.parse(invited.out);
    expect(invitation).toMatchObject({ email, role: 'designer', token: expect.any(String) });

    const pending = await engage(['operator', 'invitations', '--organization', tenant.organizationId], '');
    expect(JSON.parse(pending.out)).toContainEqual(expect.objectContaining({ email, role: 'designer' }));

    const accepted = await engageWithoutToken(
      ['operator', 'accept', '--invitation-token', invitation.token, '--display-name', 'CLI designer'],
      `${password}\n`,
    );
    expect(accepted, accepted.err).toMatchObject({ code: 0 });
    expect(JSON.parse(accepted.out)).toMatchObject({
      organizationId: tenant.organizationId,
      role: 'designer',
    });
    expect(accepted.out + accepted.err).not.toContain(password);

    const signIn = await fetch(`${controlPlane.url}/admin/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);

    const listed = await engage(['operator', 'list', '--organization', tenant.organizationId], '');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toContainEqual(
      expect.objectContaining({ email, role: 'designer', displayName: 'CLI designer' }),
    );
  });

  it('revokes an invitation', async () => {
    const email = `revoked-${crypto.randomUUID()}@example.test`;
    const base = ['--organization', tenant.organizationId];
    const invited = await engage(['operator', 'invite', ...base, '--email', email, '--role', 'viewer'], '');
    const { invitationId, token } = JSON.parse(invited.out);
    const revoked = await engage(['operator', 'revoke-invitation', invitationId, ...base], '');
    expect([revoked.code, JSON.parse(revoked.out)]).toEqual([0, { revoked: invitationId }]);
    const accepted = await engageWithoutToken(
      ['operator', 'accept', '--invitation-token', token],
      'a password for nothing\n',
    );
    expect([accepted.code, accepted.err]).toEqual([1, expect.stringContaining('invitation.not_found')]);
  });

  it('refuses an empty stdin, a short or common password and a role that does not exist', async () => {
    const invited = await engage(
      [
        'operator',
        'invite',
        '--organization',
        tenant.organizationId,
        '--email',
        `x-${crypto.randomUUID()}@example.test`,
        '--role',
        'viewer',
      ],
      '',
    );
    const accept = ['operator', 'accept', '--invitation-token', JSON.parse(invited.out).token];
    const empty = await engageWithoutToken(accept, '');
    expect([empty.code, empty.err]).toEqual([1, expect.stringContaining('no password')]);
    const short = await engageWithoutToken(accept, 'short\n');
    expect([short.code, short.err]).toEqual([1, expect.stringContaining('validation.password')]);
    const common = await engageWithoutToken(accept, 'password1234\n');
    expect([common.code, common.err]).toEqual([1, expect.stringContaining('operator.password_common')]);
    const role = await engage(
      [
        'operator',
        'invite',
        '--organization',
        tenant.organizationId,
        '--email',
        'x@example.test',
        '--role',
        'superuser',
      ],
      '',
    );
    expect(role.code).not.toBe(0);
    expect(role.err).toContain('superuser');
  });
});
