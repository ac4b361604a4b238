import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '@engage/cli/admin-client.ts';
import {
  createTenant,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

/**
 * The operators' commands of `engage` against a real stack: players (get, search,
 * adjust), key list and definition export.
 */

let stack: TestStack;
let tenant: Tenant;
/** This file's own players: every id starts with it. */
const run = `cli-${crypto.randomUUID().slice(0, 8)}`;
/** More digits than a double holds: printed as stored or the CLI lost them. */
const exactLevel = '12345678901234567.5';

const definition = {
  discovery: false,
  events: [
    { key: 'level_completed', active: true, properties: { level: { type: 'number', required: true } } },
  ],
  playerAttributes: [
    { key: 'tier', type: 'string' },
    { key: 'level', type: 'number' },
  ],
};

function engage(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const main = join(stackConfig().repoRoot, 'libs', 'cli', 'src', 'main.ts');
  const child = spawn(process.execPath, [main, '--url', stack.controlPlaneUrl, ...args], {
    env: { ...process.env, ENGAGE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

async function succeeds(args: string[]): Promise<string> {
  const result = await engage(args);
  expect(result, result.err).toMatchObject({ code: 0 });
  return result.out;
}

beforeAll(async () => {
  stack = await startStack();
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: definition as never });
  for (const [playerId, attributes] of [
    [`${run}-ada`, `{"tier":"gold","level":${exactLevel}}`],
    [`${run}-alan`, '{"tier":"silver","level":3}'],
  ] as const) {
    const response = await fetch(`${stack.gatewayUrl}/v1/players/attributes`, {
      method: 'POST',
      headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
      body: `{"playerId":${JSON.stringify(playerId)},"attributes":${attributes}}`,
    });
    expect(response.status, await response.text()).toBe(200);
  }
}, 180_000);

afterAll(() => stack?.stop());

describe('engage players', () => {
  const environment = () => ['-e', tenant.sandbox.environmentId];

  it('get prints the player, its attributes exactly as stored, and its balance', async () => {
    const out = await succeeds(['players', 'get', `${run}-ada`, ...environment()]);
    expect(out).toContain(`"level": ${exactLevel}`);
    expect(JSON.parse(out)).toMatchObject({
      playerId: `${run}-ada`,
      attributes: { tier: 'gold' },
      points: 0,
    });
  });

  it('search finds players by id prefix and by attribute value', async () => {
    const byPrefix = JSON.parse(await succeeds(['players', 'search', ...environment(), '--id-prefix', run]));
    expect(byPrefix.map((p: { playerId: string }) => p.playerId)).toEqual([`${run}-ada`, `${run}-alan`]);
    const byTier = JSON.parse(
      await succeeds([
        'players',
        'search',
        ...environment(),
        '--id-prefix',
        run,
        '--attribute',
        'tier',
        '--value',
        'silver',
      ]),
    );
    expect(byTier).toEqual([
      { playerId: `${run}-alan`, timeZone: null, attributes: { tier: 'silver', level: 3 } },
    ]);
    const limited = JSON.parse(
      await succeeds(['players', 'search', ...environment(), '--id-prefix', run, '--limit', '1']),
    );
    expect(limited).toHaveLength(1);
  });

  it('adjust moves the balance once per idempotency key, and takes a negative amount', async () => {
    const key = crypto.randomUUID();
    const args = [
      'players',
      'adjust',
      `${run}-alan`,
      ...environment(),
      '--amount',
      '25',
      '--reason',
      'goodwill',
    ];
    const first = JSON.parse(await succeeds([...args, '--idempotency-key', key]));
    expect(first).toMatchObject({ balance: 25, idempotencyKey: key });
    const retried = JSON.parse(await succeeds([...args, '--idempotency-key', key]));
    expect(retried).toMatchObject({ balance: 25, transactionId: first.transactionId });
    const debit = JSON.parse(
      await succeeds([
        'players',
        'adjust',
        `${run}-alan`,
        ...environment(),
        '--amount',
        '-10',
        '--reason',
        'correction',
      ]),
    );
    expect(debit).toMatchObject({ balance: 15, idempotencyKey: expect.any(String) });
    expect(JSON.parse(await succeeds(['players', 'get', `${run}-alan`, ...environment()])).points).toBe(15);
  });

  it('refuses an adjustment without a reason, and of zero points, before calling the gateway', async () => {
    const noReason = await engage(['players', 'adjust', `${run}-alan`, ...environment(), '--amount', '5']);
    expect(noReason.code).not.toBe(0);
    expect(noReason.err).toContain('--reason');
    const zero = await engage([
      'players',
      'adjust',
      `${run}-alan`,
      ...environment(),
      '--amount',
      '0',
      '--reason',
      'x',
    ]);
    expect(zero.code).not.toBe(0);
    expect(zero.err).toContain('0 is not a whole number other than 0');
  });

  it('says which player is unknown', async () => {
    const result = await engage(['players', 'get', `${run}-nobody`, ...environment()]);
    expect(result.code).toBe(1);
    expect(result.err).toContain('admin API answered 404');
  });
});

describe('engage key list', () => {
  it("lists the environment's keys with their names, never the key itself", async () => {
    const created = JSON.parse(await succeeds(['key', 'create', tenant.live.environmentId, '--name', 'ci']));
    const keys = JSON.parse(await succeeds(['key', 'list', tenant.live.environmentId]));
    expect(keys).toContainEqual(expect.objectContaining({ apiKeyId: created.apiKeyId, name: 'ci' }));
    expect(JSON.stringify(keys)).not.toContain(created.apiKey);
  });
});

describe('engage definition export', () => {
  it("prints the environment's file, which applies elsewhere to the same content", async () => {
    const exported = await succeeds(['definition', 'export', '-e', tenant.sandbox.environmentId]);
    expect(parseYaml(exported)).toMatchObject({
      events: [{ key: 'level_completed', properties: { level: { type: 'number', required: true } } }],
      playerAttributes: [{ key: 'level' }, { key: 'tier' }],
    });

    const admin = new AdminClient({ url: stack.controlPlaneUrl, token: TEST_ADMIN_TOKEN });
    const elsewhere = await admin.createProject(tenant.organizationId, { name: `${run}-elsewhere` });
    const file = join(await mkdtemp(join(tmpdir(), 'engage-export-')), 'sandbox.yaml');
    await writeFile(file, exported);
    const applied = await succeeds(['apply', '-f', file, '-e', elsewhere.sandbox.environmentId]);
    expect(applied).toContain('level_completed: created');
    expect(await succeeds(['definition', 'export', '-e', elsewhere.sandbox.environmentId])).toBe(exported);

    const asJson = JSON.parse(
      await succeeds(['definition', 'export', '-e', tenant.sandbox.environmentId, '--json']),
    );
    expect(asJson).toEqual(parseYaml(exported));
  });
});
