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

let gateway: ServiceProcess;
let tenant: Tenant;

beforeAll(async () => {
  gateway = await spawnService(stackConfig().repoRoot, 'gateway', serviceEnv(uniqueTopicPrefix()));
  tenant = await createTenant(gateway.url, TEST_ADMIN_TOKEN);
}, 120_000);

afterAll(() => gateway?.stop());

/** Runs the `engage` binary with `stdin` piped in, as a script would. */
function engage(args: string[], stdin: string): Promise<{ code: number | null; out: string; err: string }> {
  const main = join(stackConfig().repoRoot, 'libs', 'cli', 'src', 'main.ts');
  const child = spawn(process.execPath, [main, '--url', gateway.url, ...args], {
    env: { ...process.env, ENGAGE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
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

describe('engage operator', () => {
  it('creates an operator with the password from stdin, who can then sign in; lists them', async () => {
    const email = `cli-${crypto.randomUUID()}@example.test`;
    const password = 'a password read from stdin';
    const created = await engage(
      ['operator', 'create', '--organization', tenant.organizationId, '--email', email, '--role', 'designer'],
      `${password}\n`,
    );
    expect(created, created.err).toMatchObject({ code: 0 });
    expect(JSON.parse(created.out)).toMatchObject({ email, role: 'designer', displayName: email });
    expect(created.out + created.err).not.toContain(password);

    const signIn = await fetch(`${gateway.url}/admin/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);

    const listed = await engage(['operator', 'list', '--organization', tenant.organizationId], '');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toContainEqual(expect.objectContaining({ email, role: 'designer' }));
  });

  it('refuses an empty stdin, a short password and a role that does not exist', async () => {
    const base = ['operator', 'create', '--organization', tenant.organizationId, '--email', 'x@example.test'];
    const empty = await engage([...base, '--role', 'viewer'], '');
    expect([empty.code, empty.err]).toEqual([1, expect.stringContaining('no password')]);
    const short = await engage([...base, '--role', 'viewer'], 'short\n');
    expect([short.code, short.err]).toEqual([1, expect.stringContaining('validation.password')]);
    const role = await engage([...base, '--role', 'superuser'], 'long enough password\n');
    expect(role.code).not.toBe(0);
    expect(role.err).toContain('superuser');
  });
});
