// `npm start` the way a newcomer meets it: a few lines of its own, the services' start-up logs and the
// banner, with no error-level line and no stack trace, both on the broker it finds running and on a
// broker that has just started (its group coordinator still creating and loading the offsets topic).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPrivateDatabase,
  stackConfig,
  TEST_ADMIN_TOKEN,
  TEST_INTERNAL_AUTH_SECRET,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { findRepoRoot, LOCAL_BROKERS, type PrivateKafka, startPrivateKafka } from '../src/kafka/index.ts';

/** The lines a start may print before the banner: a dozen of its own and a few per service. */
const MAX_LINES_BEFORE_BANNER = 40;
const BANNER = 'engage is running';
const BANNER_END = 'Ctrl-C stops everything.';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('npm start', { timeout: 240_000 }, () => {
  it('prints no error and no stack trace, and few lines before the banner, on the broker it finds running', async () => {
    const { brokers } = stackConfig();
    const output = await startUntilBanner(brokers, signInAsDemoOwner);
    expectQuietStart(output);
    if (brokers.join(',') === LOCAL_BROKERS.join(',')) {
      expect(output).toContain('[stack] reusing the Kafka broker already answering on');
    }
  });

  it("answers the README's Try it with a completed mission and its points, and names the demo environment", async () => {
    const { output, gatewayUrl, controlPlaneUrl } = await startStack(stackConfig().brokers);
    expect(output).toContain(`Console:           ${controlPlaneUrl}/console/`);
    expect(output).toMatch(/Demo environment: {2}[0-9a-f-]{36}/);
    const key = /Demo Sandbox key: {2}(\S+)/.exec(output)?.[1];
    expect(key).toMatch(/^eng_sandbox_/);
    const [enter, send, points] = await tryItCommands();
    const run = (command: string) => runShell(command.replaceAll('http://127.0.0.1:8080', gatewayUrl), key!);
    expect(JSON.parse(await run(enter!)).map((m: { missionKey: string }) => m.missionKey)).toContain(
      'first-level',
    );
    expect(JSON.parse(await run(send!)).accepted).toBe(1);
    // The reward travels through Kafka to rules and the ledger: the README says to repeat it.
    const deadline = Date.now() + 60_000;
    let balance: unknown;
    while (Date.now() < deadline) {
      balance = JSON.parse(await run(points!)).balance;
      if (balance === 100) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(balance).toBe(100);
  });

  it('prints no error and no stack trace on a broker that has just started', async () => {
    const broker: PrivateKafka = await startPrivateKafka();
    cleanups.push(() => broker.destroy());
    expectQuietStart(await startUntilBanner(broker.brokers));
  });
});

/** The banner names the demo organization's first Owner and a password that signs in to the console. */
async function signInAsDemoOwner(banner: string) {
  const url = /Control plane: +(http:\/\/\S+)/.exec(banner)?.[1];
  const [, email, password] = /Console sign-in:\s+(\S+)\s+password (\S+)/.exec(banner) ?? [];
  expect([url, email], banner).toEqual([expect.any(String), 'owner@demo.local']);
  const answer = await fetch(`${url}/admin/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(answer.status).toBe(200);
  const session = (await answer.json()) as { memberships: { organizationName: string; role: string }[] };
  expect(session.memberships).toEqual([expect.objectContaining({ organizationName: 'Demo', role: 'owner' })]);
}

function expectQuietStart(output: string) {
  const lines = output.split('\n');
  const bannerAt = lines.findIndex((line) => line.includes(BANNER));
  expect(bannerAt, output).toBeGreaterThan(0);
  expect(bannerAt, output).toBeLessThanOrEqual(MAX_LINES_BEFORE_BANNER);
  // pino's error and fatal levels, a stack trace in a JSON log line, or one printed as it is.
  const alarming = lines.filter(
    (line) =>
      /"level":(50|60)\b/.test(line) || line.includes('"stack":') || /^\s+at \S.*:\d+:\d+\)?$/.test(line),
  );
  expect(alarming).toEqual([]);
}

/** The README's "Try it" commands (continued lines joined), after the line setting KEY. */
async function tryItCommands(): Promise<string[]> {
  const readme = await readFile(join(findRepoRoot(), 'README.md'), 'utf8');
  const block = /<!-- try-it:start -->\s*```sh\n([\s\S]*?)```\s*<!-- try-it:end -->/.exec(readme)?.[1] ?? '';
  const commands = block
    .replaceAll('\\\n', ' ')
    .split('\n')
    .filter((line) => line.trim() !== '');
  expect(commands[0]).toMatch(/^KEY=/);
  return commands.slice(1);
}

async function runShell(command: string, key: string): Promise<string> {
  const child = spawn('bash', ['-c', command], {
    env: { ...process.env, KEY: key },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const [code] = await once(child, 'exit');
  expect(code, command).toBe(0);
  return out;
}

/**
 * Runs `npm start`'s script with the test stack's Postgres and Redis, topics, keys and ports of its
 * own, until it prints its banner; then `whileRunning`, Ctrl-C, and the whole output.
 */
async function startUntilBanner(
  brokers: string[],
  whileRunning?: (output: string) => Promise<void>,
): Promise<string> {
  const { output, stop } = await startStack(brokers);
  await whileRunning?.(output);
  await stop();
  return output;
}

/** Like startUntilBanner, but leaves the stack running (stopped after the test). */
async function startStack(
  brokers: string[],
): Promise<{ output: string; gatewayUrl: string; controlPlaneUrl: string; stop: () => Promise<void> }> {
  const stack = stackConfig();
  const stateDir = mkdtempSync(join(tmpdir(), 'engage-start-'));
  cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }));
  const topicPrefix = uniqueTopicPrefix();
  // A database of its own: the file's may hold an earlier stack's outbox rows, for topics this broker lacks.
  const database = await createPrivateDatabase();
  cleanups.push(() => database.drop());
  const { KAFKA_BROKERS: _ignored, ...inherited } = process.env;
  const root = findRepoRoot();
  // The gateway, rules, ledger, query and the control plane, on consecutive ports.
  const portBase = await freePortRun(5);
  const child = spawn(process.execPath, [join(root, 'libs/devstack/src/cli/start.ts')], {
    cwd: root,
    env: {
      ...inherited,
      // Like a plain `npm start`: the broker on 127.0.0.1:9092 is found without being named.
      ...(brokers.join(',') === LOCAL_BROKERS.join(',') ? {} : { KAFKA_BROKERS: brokers.join(',') }),
      DATABASE_URL: database.url,
      REDIS_URL: stack.redisUrl,
      REDIS_KEY_PREFIX: topicPrefix,
      KAFKA_TOPIC_PREFIX: topicPrefix,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      INTERNAL_AUTH_SECRET: TEST_INTERNAL_AUTH_SECRET,
      ENGAGE_PORT_BASE: String(portBase),
      ENGAGE_STATE_DIR: stateDir,
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stopped(child));
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  while (!output.includes(BANNER_END)) {
    const ended = await Promise.race([exited.then(() => true), once(child.stdout, 'data').then(() => false)]);
    if (ended) throw new Error(`npm start exited before its banner:\n${output}`);
  }
  return {
    output,
    gatewayUrl: `http://127.0.0.1:${portBase}`,
    controlPlaneUrl: `http://127.0.0.1:${portBase + 4}`,
    stop: () => stopped(child),
  };
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGINT');
  await exit;
}

/**
 * The first of `count` consecutive free ports on 127.0.0.1, below Linux's ephemeral range
 * (32768–60999): a port the kernel hands out for outgoing connections can be taken by another
 * test's client between this check and the service's listen.
 */
async function freePortRun(count: number): Promise<number> {
  for (;;) {
    const first = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(Array.from({ length: count }, (_, i) => isFree(first + i)));
    if (free.every(Boolean)) return first;
  }
}

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  try {
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}
