import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, javaCommand, signalGroup, sleep, tail, waitForExit } from '../kafka/jvm.ts';
import { runMaven } from '../kafka/maven-progress.ts';
import { findRepoRoot, LOCAL_HOST } from '../kafka/paths.ts';
import { freePorts } from '../kafka/private-broker.ts';

/**
 * A local Apicurio Registry (its Confluent-compatible API is what SCHEMA_REGISTRY_URL names), built
 * once per checkout from deploy/registry/pom.xml into .cache/registry and run with H2 in memory: a
 * registry started here holds nothing from one start to the next.
 */

/** Where `npm run registry -- start` listens (8081, the usual port, is the rules service's). */
export const LOCAL_REGISTRY_PORT = 8085;
/** The Confluent-compatible API of Apicurio Registry 2.x, relative to its root. */
const CCOMPAT_PATH = '/apis/ccompat/v7';
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
/** Small pools and heap: the registry of a test or a laptop serves one client or a few. */
const JVM_FLAGS = ['-Xms64m', '-Xmx384m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'];
const QUARKUS_FLAGS = [
  '-Dquarkus.datasource.jdbc.initial-size=1',
  '-Dquarkus.datasource.jdbc.min-size=1',
  '-Dquarkus.datasource.jdbc.max-size=8',
  '-Dquarkus.log.console.json=false',
];

export interface RegistryPaths {
  repoRoot: string;
  pom: string;
  /** .cache/registry */
  cacheDir: string;
  /** Maven's build directory: the runnable jar and its lib/ folder. */
  buildDir: string;
  runJar: string;
  /** Written once a build of the current pom and sources completed; holds their digest. */
  marker: string;
  pidFile: string;
  log: string;
}

export function registryPaths(repoRoot: string = findRepoRoot()): RegistryPaths {
  const deployDir = join(repoRoot, 'deploy', 'registry');
  const cacheDir = join(repoRoot, '.cache', 'registry');
  const buildDir = join(cacheDir, 'build');
  return {
    repoRoot,
    pom: join(deployDir, 'pom.xml'),
    cacheDir,
    buildDir,
    runJar: join(buildDir, 'apicurio-registry-runner-0-runner.jar'),
    marker: join(cacheDir, 'complete'),
    pidFile: join(cacheDir, 'registry.pid'),
    log: join(cacheDir, 'registry.log'),
  };
}

/** The pom and the one source file: a change to either builds again. */
function buildDigest(paths: RegistryPaths): string {
  const hash = createHash('sha256').update(readFileSync(paths.pom));
  const source = join(
    paths.repoRoot,
    'deploy/registry/src/main/java/engage/devstack/registry/DynamicConfigPropertyListProducer.java',
  );
  hash.update(readFileSync(source));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the registry unless this pom's build is already in .cache/registry (about a minute once).
 * Test files run in parallel: one builds while the others wait for it (a lock directory holding the
 * builder's pid; a lock whose process is gone is taken over).
 */
export async function ensureRegistryBuild(
  opts: { repoRoot?: string; log?: (line: string) => void } = {},
): Promise<RegistryPaths> {
  const paths = registryPaths(opts.repoRoot);
  const log = opts.log ?? defaultLog;
  const digest = buildDigest(paths);
  const built = () =>
    existsSync(paths.runJar) &&
    existsSync(paths.marker) &&
    readFileSync(paths.marker, 'utf8').trim() === digest;
  if (built()) return paths;
  mkdirSync(paths.cacheDir, { recursive: true });
  const lock = join(paths.cacheDir, 'build.lock');
  let waiting = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), `${process.pid}\n`);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = Number.NaN;
    try {
      holder = Number.parseInt(readFileSync(join(lock, 'pid'), 'utf8'), 10);
    } catch {
      // the lock was just taken (no pid yet) or just released
    }
    if (Number.isInteger(holder) && !isAlive(holder)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!waiting) log('another process is building the registry; waiting for it');
    waiting = true;
    await sleep(1_000);
    if (built()) return paths;
  }
  try {
    if (!built()) await build(paths, digest, log);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return paths;
}

async function build(paths: RegistryPaths, digest: string, log: (line: string) => void): Promise<void> {
  log(`building Apicurio Registry from Maven Central into ${paths.buildDir} (once)`);
  rmSync(paths.buildDir, { recursive: true, force: true });
  rmSync(paths.marker, { force: true });
  const goals = ['package', `-Dengage.registry.buildDirectory=${paths.buildDir}`];
  const summary = await runMaven(paths.pom, goals, { cwd: paths.repoRoot, log });
  log(summary.replace('jars ready', 'registry built'));
  if (!existsSync(paths.runJar)) throw new Error(`mvn finished but ${paths.runJar} is missing`);
  writeFileSync(paths.marker, `${digest}\n`);
}

export interface RunningRegistry {
  /** The value for SCHEMA_REGISTRY_URL: the Confluent-compatible API's base URL. */
  readonly url: string;
  readonly pid: number;
  /** SIGTERM, then SIGKILL if it has not exited in time. */
  stop(): Promise<void>;
  /** The last lines of its log, for a failure message. */
  logs(lines?: number): string;
}

/**
 * Starts a registry of the caller's own on a free loopback port and waits until it answers: for a
 * test, which stops it at the end. `detached` leaves it running after this process exits.
 */
export async function startRegistry(
  opts: {
    repoRoot?: string;
    log?: (line: string) => void;
    port?: number;
    detached?: boolean;
    logFile?: string;
  } = {},
): Promise<RunningRegistry> {
  const log = opts.log ?? defaultLog;
  const paths = await ensureRegistryBuild({ ...opts, log });
  const port = opts.port ?? (await freePorts(1))[0];
  const logFile = opts.logFile ?? join(paths.cacheDir, `registry-${port}.log`);
  const out = openSync(logFile, 'w');
  let pid: number;
  try {
    const child = spawn(
      javaCommand(),
      [
        ...JVM_FLAGS,
        ...QUARKUS_FLAGS,
        `-Dquarkus.http.host=${LOCAL_HOST}`,
        `-Dquarkus.http.port=${port}`,
        '-jar',
        paths.runJar,
      ],
      { cwd: paths.cacheDir, detached: true, stdio: ['ignore', out, out] },
    );
    if (child.pid === undefined) throw new Error(`could not start ${javaCommand()} (is Java 17+ installed?)`);
    child.on('error', () => {}); // reported through the liveness check below
    if (opts.detached) child.unref();
    pid = child.pid;
  } finally {
    closeSync(out);
  }
  const started = Date.now();
  const url = `http://${LOCAL_HOST}:${port}${CCOMPAT_PATH}`;
  const handle: RunningRegistry = {
    url,
    pid,
    logs: (lines = 40) => tail(logFile, lines),
    stop: async () => {
      signalGroup(pid, 'SIGTERM');
      if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
        signalGroup(pid, 'SIGKILL');
        await waitForExit(pid, 5_000);
      }
    },
  };
  try {
    await waitUntilAnswering(url, pid, READY_TIMEOUT_MS);
    await createIdSequences(url);
  } catch (error) {
    signalGroup(pid, 'SIGKILL');
    throw new Error(`${(error as Error).message}\n--- ${logFile} ---\n${handle.logs()}`);
  }
  log(`Apicurio Registry ready on ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${pid})`);
  return handle;
}

/** Whether the registry's Confluent-compatible API answers at `url`. */
export async function registryAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/subjects`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Registers a schema and deletes it again. The registry creates its id sequences in H2 on the first
 * registration, and first registrations made at once (services starting together) deadlock there.
 */
async function createIdSequences(url: string): Promise<void> {
  const subject = `${url}/subjects/engage-devstack-warm-up-value`;
  const registered = await fetch(`${subject}/versions`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ schema: '{"type":"record","name":"WarmUp","fields":[]}' }),
  });
  if (!registered.ok) throw new Error(`the registry refused its warm-up schema: ${await registered.text()}`);
  await fetch(subject, { method: 'DELETE' });
}

async function waitUntilAnswering(url: string, pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) throw new Error(`the registry (pid ${pid}) exited during startup`);
    if (await registryAnswers(url)) return;
    await sleep(250);
  }
  throw new Error(`the registry did not answer at ${url} within ${timeoutMs / 1000} s`);
}

// ---------------------------------------------------------------------------------------------
// the one of `npm run registry`: a fixed port and a pid file

export const LOCAL_REGISTRY_URL = `http://${LOCAL_HOST}:${LOCAL_REGISTRY_PORT}${CCOMPAT_PATH}`;

function readLivePid(paths: RegistryPaths): number | undefined {
  if (!existsSync(paths.pidFile)) return undefined;
  const pid = Number.parseInt(readFileSync(paths.pidFile, 'utf8').trim(), 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) return pid;
  rmSync(paths.pidFile, { force: true });
  return undefined;
}

/** Starts the local registry on LOCAL_REGISTRY_PORT, detached, unless one answers there already. */
export async function ensureLocalRegistry(opts: { repoRoot?: string; log?: (line: string) => void } = {}) {
  const log = opts.log ?? defaultLog;
  const paths = registryPaths(opts.repoRoot);
  if (await registryAnswers(LOCAL_REGISTRY_URL)) {
    log(`reusing the registry already answering on ${LOCAL_REGISTRY_URL}`);
    return LOCAL_REGISTRY_URL;
  }
  const registry = await startRegistry({
    ...opts,
    log,
    port: LOCAL_REGISTRY_PORT,
    detached: true,
    logFile: paths.log,
  });
  writeFileSync(paths.pidFile, `${registry.pid}\n`);
  return registry.url;
}

/** Stops the registry `ensureLocalRegistry` started; no-op when none runs. */
export async function stopLocalRegistry(opts: { repoRoot?: string; log?: (line: string) => void } = {}) {
  const log = opts.log ?? defaultLog;
  const paths = registryPaths(opts.repoRoot);
  const pid = readLivePid(paths);
  if (pid === undefined) {
    log('no local registry is running');
    return;
  }
  log(`stopping the registry (pid ${pid})`);
  signalGroup(pid, 'SIGTERM');
  if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) signalGroup(pid, 'SIGKILL');
  rmSync(paths.pidFile, { force: true });
}

export async function localRegistryStatus(opts: { repoRoot?: string } = {}) {
  const pid = readLivePid(registryPaths(opts.repoRoot));
  return { running: await registryAnswers(LOCAL_REGISTRY_URL), pid, url: LOCAL_REGISTRY_URL };
}

const defaultLog = (line: string) => process.stderr.write(`[registry] ${line}\n`);
