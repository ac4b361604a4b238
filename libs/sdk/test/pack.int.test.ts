import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTenant, startStack, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LEVEL } from './support/first-level.ts';

/**
 * The package as a game's backend gets it: `npm pack` of libs/sdk (its prepack build included),
 * installed from the tarball into a project outside the repository (openapi-fetch from the
 * registry), a TypeScript program type-checked there against the installed declarations by its own
 * tsc, then run against a real stack. And the package built from a copy of libs/sdk alone, with
 * nothing of the monorepo around it.
 */
const run = promisify(execFile);
const SDK_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** npm without the npm_* variables of an `npm test` or `npx` that started vitest (a workspace, say). */
const npm = (args: string[], cwd: string) =>
  run('npm', args, {
    cwd,
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_'))),
    maxBuffer: 16 * 1024 * 1024,
  });

/** What `npm pack --json` reports of one tarball. */
interface Packed {
  filename: string;
  files: { path: string }[];
}

async function pack(dir: string, destination: string): Promise<Packed> {
  const { stdout } = await npm(['pack', '--json', '--pack-destination', destination], dir);
  return (JSON.parse(stdout) as [Packed])[0];
}

const definition = FIRST_LEVEL;

/** What a game server writes, importing only the installed package. */
const PROGRAM = `
import { EngageClient, EngageProblem, verifyWebhook, WebhookVerificationError, type EventItem } from '@engage/sdk';

declare const process: { argv: string[] }; // no @types/node: the SDK needs only fetch and Web Crypto

const [baseUrl, apiKey, playerId] = process.argv.slice(2) as [string, string, string];
const engage = new EngageClient({ apiKey, baseUrl });

// The declarations are real types, not any: a call without its player does not compile.
export function untyped() {
  // @ts-expect-error playerId is required
  return engage.points.adjust({ amount: 1 });
}

const missions = await engage.missions.list({ playerId });
const adjusted = await engage.points.adjust({ playerId, amount: 7, reason: 'welcome' });
const queue = engage.events.queue({ flushIntervalMs: 50 });
const event: EventItem = { eventKey: 'level_completed', playerId, properties: { level: 1 } };
await queue.add(event);
await queue.close();

// The mission's reward arrives through Kafka a moment after the event was accepted.
let balance = adjusted.balance;
for (let attempt = 0; balance < 12 && attempt < 200; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  balance = (await engage.points.balance({ PlayerId: playerId })).balance;
}

const refused = await engage.points.adjust({ playerId, amount: 0 }).catch((err: unknown) => err);
const unsigned = await verifyWebhook({ body: '{}', headers: {}, secret: 'whsec_AAAA' }).catch((err: unknown) => err);

console.log(JSON.stringify({
  missions: missions.map((m) => m.missionKey),
  adjusted: adjusted.balance,
  balance,
  refused: refused instanceof EngageProblem ? refused.code : String(refused),
  unsigned: unsigned instanceof WebhookVerificationError ? unsigned.reason : String(unsigned),
}));
`;

let stack: TestStack;
let tenant: Tenant;
let scratch: string;

beforeAll(async () => {
  [stack, scratch] = await Promise.all([startStack(), mkdtemp(join(tmpdir(), 'engage-sdk-pack-'))]);
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the packed SDK', () => {
  it('installs from its tarball outside the repository, type-checks a program and runs it', async () => {
    const tarball = await pack(SDK_DIR, scratch);
    const files = tarball.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'CHANGELOG.md',
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/verify-webhook.d.ts',
      ]),
    );
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'package.json',
    ]);

    const project = join(scratch, 'game-server');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'game-server', private: true, type: 'module' }),
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: [],
          strict: true,
          outDir: 'out',
        },
        include: ['main.ts'],
      }),
    );
    await writeFile(join(project, 'main.ts'), PROGRAM);
    await npm(
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        join(scratch, tarball.filename),
        'typescript@5.9',
      ],
      project,
    );

    // tsc of the scratch project, against dist/*.d.ts of the installed package.
    await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: project,
    });
    const playerId = `packed-${crypto.randomUUID()}`;
    const { stdout } = await run(
      process.execPath,
      [join(project, 'out/main.js'), stack.gatewayUrl, tenant.sandbox.apiKey, playerId],
      { cwd: project },
    );
    expect(JSON.parse(stdout)).toEqual({
      missions: ['first-level'],
      adjusted: 7,
      balance: 12,
      refused: 'points_adjustment.amount_zero',
      unsigned: 'missing_header',
    });
  });

  it('builds from a copy of libs/sdk outside the repository: nothing of the monorepo needed', async () => {
    const copy = join(scratch, 'sdk-alone');
    for (const path of [
      'package.json',
      'tsconfig.build.json',
      'src',
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
    ]) {
      await cp(join(SDK_DIR, path), join(copy, path), { recursive: true });
    }
    // Its devDependencies (TypeScript among them) and openapi-fetch, from the registry.
    await npm(['install', '--no-audit', '--no-fund', '--prefer-offline'], copy);
    const alone = await pack(copy, copy);
    const inRepo = await pack(SDK_DIR, scratch);
    expect(alone.files.map((f) => f.path).sort()).toEqual(inRepo.files.map((f) => f.path).sort());
    expect(alone.files.map((f) => f.path)).toContain('dist/index.d.ts');
  });
});
