import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, warnIfAutovacuumOff } from '../src/pool.ts';

/**
 * A Postgres server of the test's own, since autovacuum can only be set for a whole server and the
 * shared one is not the test's to switch. Postgres refuses to run as root, so as root its commands
 * run as the `postgres` user.
 */
const bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
const asRoot = process.getuid?.() === 0;
const dir = mkdtempSync(join(tmpdir(), 'engage-autovacuum-'));
const data = join(dir, 'data');

function pgCommand(name: string, args: string[]): void {
  const [command, prefix] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bindir, name)]]
    : [join(bindir, name), []];
  execFileSync(command, [...prefix, ...args], { stdio: 'ignore', timeout: 60_000 });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs `body` against the test's server started with `autovacuum` as given. */
async function withServer(autovacuum: 'on' | 'off', body: (url: string) => Promise<void>): Promise<void> {
  const port = await freePort();
  const options = `-c autovacuum=${autovacuum} -c listen_addresses=127.0.0.1 -p ${port} -k ''`;
  pgCommand('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  try {
    await body(`postgres://postgres@127.0.0.1:${port}/postgres`);
  } finally {
    pgCommand('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  }
}

async function warningsOf(url: string): Promise<{ warned: boolean; warnings: object[] }> {
  const pool = createPool({ url, schema: 'public', max: 1 });
  const warnings: object[] = [];
  try {
    const warned = await warnIfAutovacuumOff(pool, { warn: (details) => warnings.push(details) });
    return { warned, warnings };
  } finally {
    await pool.end();
  }
}

describe('warnIfAutovacuumOff', () => {
  beforeAll(() => {
    if (asRoot) execFileSync('chown', ['postgres', dir]);
    pgCommand('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('warns when the server runs without autovacuum', async () => {
    await withServer('off', async (url) => {
      expect(await warningsOf(url)).toEqual({ warned: true, warnings: [{ autovacuum: 'off' }] });
    });
  }, 60_000);

  it('stays quiet when the server runs autovacuum', async () => {
    await withServer('on', async (url) => {
      expect(await warningsOf(url)).toEqual({ warned: false, warnings: [] });
    });
  }, 60_000);

  it('leaves a server it cannot ask to the readiness probe', async () => {
    expect(await warningsOf('postgres://postgres@127.0.0.1:1/none')).toEqual({ warned: false, warnings: [] });
  });
});
