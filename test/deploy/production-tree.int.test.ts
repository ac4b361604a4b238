import { execFile } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, matchesGlob, relative } from 'node:path';
import { promisify } from 'node:util';
import { createTenant, stackConfig, startStack, type TestStack, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The container image's file tree, built without a container engine: the build context as
 * deploy/Dockerfile.dockerignore leaves it, production dependencies installed exactly as the
 * Dockerfile's `dependencies` stage does, then the four services started from that tree as the
 * image's non-root user (uid 1000) with NODE_ENV=production. A service importing a devDependency,
 * a file the ignore list drops, or writing into its own tree fails here, before any image build.
 */
const run = promisify(execFile);
const repoRoot = stackConfig().repoRoot;
const SERVICES = ['gateway', 'rules', 'ledger', 'query', 'control-plane'];
const NON_ROOT = { uid: 1000, gid: 1000 };

/** The build context's patterns: a path is left out when it or one of its parents matches. */
function contextFilter(): (path: string) => boolean {
  const patterns = readFileSync(join(repoRoot, 'deploy', 'Dockerfile.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  return (path) => {
    const rel = relative(repoRoot, path);
    return rel === '' || !patterns.some((pattern) => matchesGlob(rel, pattern));
  };
}

describe('the image tree: production dependencies only, run as a non-root user', () => {
  let tree: string;
  // Kept while it starts: a test that times out meanwhile still gets its processes stopped.
  let starting: Promise<TestStack> | undefined;

  beforeAll(async () => {
    tree = mkdtempSync(join(tmpdir(), 'engage-image-'));
    chmodSync(tree, 0o755);
    cpSync(repoRoot, tree, { recursive: true, filter: contextFilter() });
    // The Dockerfile's dependencies stage, step for step.
    await run('npm', ['pkg', 'delete', 'devDependencies', '--workspaces', '--include-workspace-root'], {
      cwd: tree,
    });
    await run(
      'npm',
      [
        'install',
        '--omit=dev',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        ...SERVICES.flatMap((s) => ['--workspace', `services/${s}`]),
        '--workspace',
        'libs/devstack',
      ],
      { cwd: tree, maxBuffer: 16 * 1024 * 1024 },
    );
  }, 300_000);

  afterAll(async () => {
    const stack = await starting?.catch(() => undefined);
    await stack?.stop();
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  it('leaves the tests, the docs and the dev tools out', () => {
    const absent = [
      'test',
      'docs',
      'k8s',
      'services/gateway/test',
      'services/control-plane/test',
      'node_modules/vitest',
      'node_modules/@biomejs',
    ];
    expect(absent.filter((path) => exists(join(tree, path)))).toEqual([]);
    expect(exists(join(tree, 'node_modules', 'kafkajs'))).toBe(true);
  });

  it('runs the migration Job’s command from it as uid 1000', async () => {
    const user = process.getuid?.() === 0 ? NON_ROOT : {};
    const { stdout } = await run(process.execPath, [join(tree, 'libs/devstack/src/cli/migrate.ts')], {
      cwd: tree,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: stackConfig().databaseUrl,
        KAFKA_BROKERS: stackConfig().brokers.join(','),
        KAFKA_TOPIC_PREFIX: uniqueTopicPrefix(),
      },
      ...user,
    });
    expect(stdout).toContain('schemas migrated and topics created');
  });

  it('starts every service from it as uid 1000 in production mode, and they serve', async () => {
    const user = process.getuid?.() === 0 ? NON_ROOT : undefined;
    starting = startStack({ root: tree, user, env: { NODE_ENV: 'production' } });
    const stack = await starting;
    if (user) {
      const uids = Object.values(stack.services).map((service) => uidOf(service.pid()!));
      expect(uids).toEqual(Array(SERVICES.length).fill(NON_ROOT.uid));
    }
    const tenant = await createTenant(stack.controlPlaneUrl);
    const res = await fetch(`${stack.gatewayUrl}/v1/points?PlayerId=image-player`, {
      headers: { authorization: `Bearer ${tenant.sandbox.apiKey}` },
    });
    expect(res.status).toBe(200);
    // Five services started from a fresh tree: slow on a busy machine, and nothing here is timed.
  }, 180_000);
});

/** The real user id of a running process (Linux). */
function uidOf(pid: number): number {
  return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
