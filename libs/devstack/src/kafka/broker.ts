import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { type KafkaSecurity, PLAINTEXT } from '@engage/kafka';
import { kafkaConnectionEnv, parseEnv } from '@engage/kit';
import { describeOnce, waitForCluster } from './client.ts';
import {
  brokerJvmArgs,
  formatKraftStorage,
  isAlive,
  javaCommand,
  randomClusterId,
  signalGroup,
  tail,
  waitForExit,
} from './jvm.ts';
import { runMaven } from './maven-progress.ts';
import {
  CONTROLLER_PORT,
  findRepoRoot,
  type KafkaPaths,
  kafkaPaths,
  LOCAL_BROKERS,
  LOCAL_HOST,
  LOCAL_PORT,
} from './paths.ts';

export interface KafkaHandle {
  brokers: string[];
  /** How clients reach `brokers`: the local broker is plaintext, KAFKA_BROKERS as configured. */
  security: KafkaSecurity;
  startedHere: boolean;
  stop(): Promise<void>;
}

export interface EnsureKafkaOptions {
  log?: (line: string) => void;
  repoRoot?: string;
}

const READY_TIMEOUT_MS = 90_000;
const EXTERNAL_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;
const JVM_HEAP = ['-Xms256m', '-Xmx512m'];

export { randomClusterId };

const defaultLog = (line: string) => process.stderr.write(`[kafka] ${line}\n`);

/** KAFKA_BROKERS when set, with the TLS and SASL settings (KAFKA_SECURITY_PROTOCOL, …) to reach them. */
export function externalKafka(): { brokers: string[]; security: KafkaSecurity } | undefined {
  const raw = process.env.KAFKA_BROKERS?.trim();
  if (!raw) return undefined;
  const { KAFKA_BROKERS: brokers, kafkaSecurity: security } = parseEnv(kafkaConnectionEnv);
  return { brokers, security };
}

// ---------------------------------------------------------------------------------------------
// processes and ports

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

/** A pid is "ours" when it is alive and (where /proc exists) runs kafka.Kafka. */
function isBrokerPid(pid: number): boolean {
  if (!isAlive(pid)) return false;
  const cmd = commandLine(pid);
  return cmd === undefined ? existsSync('/proc') === false : cmd.includes('kafka.Kafka');
}

/** The pid from the pid file if that process is still a running broker; stale files are removed. */
function readLivePid(paths: KafkaPaths): number | undefined {
  if (!existsSync(paths.pidFile)) return undefined;
  const pid = Number.parseInt(readFileSync(paths.pidFile, 'utf8').trim(), 10);
  if (Number.isInteger(pid) && pid > 0 && isBrokerPid(pid)) return pid;
  rmSync(paths.pidFile, { force: true });
  return undefined;
}

/** Fallback when the pid file is missing: a kafka.Kafka JVM started with this repo's properties. */
function findBrokerByCommandLine(paths: KafkaPaths): number | undefined {
  if (!existsSync('/proc')) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = commandLine(Number(entry));
    if (cmd?.includes('kafka.Kafka') && cmd.includes(paths.serverProperties)) return Number(entry);
  }
  return undefined;
}

function portOpen(port: number, host = LOCAL_HOST, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function logTails(paths: KafkaPaths, lines = 30): string {
  return [
    `--- ${paths.serverLog} (last ${lines} lines) ---`,
    tail(paths.serverLog, lines),
    `--- ${paths.stdoutLog} (last ${lines} lines) ---`,
    tail(paths.stdoutLog, lines),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// jars, storage, broker

/**
 * The pinned broker jars in this checkout's .cache, fetched if missing, whatever broker the stack
 * uses: a test's private broker (startPrivateKafka) runs from them.
 */
export async function ensureKafkaJars(opts: { repoRoot?: string; log?: (line: string) => void } = {}) {
  await fetchJars(kafkaPaths(opts.repoRoot ?? findRepoRoot()), opts.log ?? defaultLog);
}

/** Copies the pinned broker jars into .cache/kafka/<version>/libs unless the marker says they are there. */
export async function fetchJars(paths: KafkaPaths, log: (line: string) => void): Promise<void> {
  // The tools jar came later than the marker: a cache without it is fetched again.
  const complete = existsSync(join(paths.libsDir, `kafka-tools-${paths.version}.jar`));
  if (
    complete &&
    existsSync(paths.libsMarker) &&
    readFileSync(paths.libsMarker, 'utf8').trim() === paths.version
  )
    return;
  log(`fetching Apache Kafka ${paths.version} jars from Maven Central into ${paths.libsDir} (once)`);
  rmSync(paths.libsDir, { recursive: true, force: true });
  mkdirSync(paths.libsDir, { recursive: true });
  const goals = [
    'dependency:copy-dependencies',
    '-DincludeScope=runtime',
    `-DoutputDirectory=${paths.libsDir}`,
  ];
  log(await runMaven(paths.pom, goals, { cwd: paths.repoRoot, log }));
  const brokerJar = `kafka_2.13-${paths.version}.jar`;
  if (!existsSync(join(paths.libsDir, brokerJar))) {
    throw new Error(`mvn finished but ${brokerJar} is not in ${paths.libsDir}`);
  }
  writeFileSync(paths.libsMarker, `${paths.version}\n`);
}

/** Generates (once) a cluster id and formats the KRaft storage; a formatted directory is kept. */
async function formatStorage(paths: KafkaPaths, log: (line: string) => void): Promise<void> {
  mkdirSync(paths.dataDir, { recursive: true });
  let clusterId = existsSync(paths.clusterIdFile) ? readFileSync(paths.clusterIdFile, 'utf8').trim() : '';
  const metaProps = join(paths.logDirs, 'meta.properties');
  if (existsSync(metaProps)) {
    // Already formatted: trust the directory's own id.
    const found = /^cluster\.id=(.+)$/m.exec(readFileSync(metaProps, 'utf8'))?.[1]?.trim();
    if (found && found !== clusterId) writeFileSync(paths.clusterIdFile, `${found}\n`);
    return;
  }
  if (!/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/.test(clusterId)) {
    clusterId = randomClusterId();
    writeFileSync(paths.clusterIdFile, `${clusterId}\n`);
  }
  const template = readFileSync(paths.serverProperties, 'utf8');
  writeFileSync(
    paths.formatProperties,
    `# generated from deploy/kafka/server.properties for StorageTool (no --override there)\n${template}\nlog.dirs=${paths.logDirs}\n`,
  );
  log(`formatting KRaft storage in ${paths.logDirs} (cluster id ${clusterId})`);
  await formatKraftStorage({
    libsDir: paths.libsDir,
    log4jConfig: paths.log4jConfig,
    logsDir: paths.dataDir,
    clusterId,
    properties: paths.formatProperties,
    cwd: paths.repoRoot,
    log,
  });
}

function startDetached(paths: KafkaPaths): number {
  mkdirSync(paths.dataDir, { recursive: true });
  const out = openSync(paths.stdoutLog, 'a');
  try {
    const child = spawn(
      javaCommand(),
      [
        ...brokerJvmArgs({
          heap: JVM_HEAP,
          log4jConfig: paths.log4jConfig,
          logsDir: paths.dataDir,
          libsDir: paths.libsDir,
        }),
        'kafka.Kafka',
        paths.serverProperties,
        '--override',
        `log.dirs=${paths.logDirs}`,
      ],
      { cwd: paths.repoRoot, detached: true, stdio: ['ignore', out, out] },
    );
    if (child.pid === undefined) throw new Error(`could not start ${javaCommand()} (is Java 17+ installed?)`);
    child.on('error', () => {}); // reported through the pid check below
    child.unref();
    writeFileSync(paths.pidFile, `${child.pid}\n`);
    return child.pid;
  } finally {
    closeSync(out);
  }
}

async function stopPid(paths: KafkaPaths, pid: number, log: (line: string) => void): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
    log(`broker ${pid} still running after ${STOP_TIMEOUT_MS} ms, sending SIGKILL`);
    signalGroup(pid, 'SIGKILL');
    await waitForExit(pid, 5_000);
  }
  if (existsSync(paths.pidFile) && readFileSync(paths.pidFile, 'utf8').trim() === String(pid)) {
    rmSync(paths.pidFile, { force: true });
  }
}

const noop = async () => {};

async function reuseIfAnswering(brokers: string[], security: KafkaSecurity = PLAINTEXT): Promise<boolean> {
  try {
    await describeOnce(brokers, 3_000, security);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds or starts Kafka. With KAFKA_BROKERS set, only probes those; otherwise reuses a broker on
 * 127.0.0.1:9092 or starts the pinned one detached (it outlives this process; stop() ends it).
 */
export async function ensureKafka(opts: EnsureKafkaOptions = {}): Promise<KafkaHandle> {
  const log = opts.log ?? defaultLog;
  const external = externalKafka();
  if (external) {
    const { brokers, security } = external;
    log(`KAFKA_BROKERS=${brokers.join(',')} (${security.protocol}): waiting for describeCluster`);
    await waitForCluster(brokers, { timeoutMs: EXTERNAL_TIMEOUT_MS, security });
    return { brokers, security, startedHere: false, stop: noop };
  }

  const paths = kafkaPaths(opts.repoRoot ?? findRepoRoot());
  const livePid = readLivePid(paths);

  if (await portOpen(LOCAL_PORT)) {
    if (await reuseIfAnswering(LOCAL_BROKERS)) {
      log(`reusing the Kafka broker already answering on ${LOCAL_BROKERS[0]}`);
      return { brokers: LOCAL_BROKERS, security: PLAINTEXT, startedHere: false, stop: noop };
    }
    if (livePid !== undefined) {
      // Our broker, still starting (e.g. another process just launched it): wait for it.
      log(`broker ${livePid} is starting, waiting for it`);
      await waitForCluster(LOCAL_BROKERS, { timeoutMs: READY_TIMEOUT_MS, check: diedCheck(paths, livePid) });
      return { brokers: LOCAL_BROKERS, security: PLAINTEXT, startedHere: false, stop: noop };
    }
    throw new Error(
      `port ${LOCAL_PORT} on ${LOCAL_HOST} is in use but does not answer as a Kafka broker; ` +
        `free it (e.g. \`ss -ltnp 'sport = :${LOCAL_PORT}'\`) or set KAFKA_BROKERS`,
    );
  }
  if (livePid !== undefined) {
    log(`broker ${livePid} is starting, waiting for it`);
    await waitForCluster(LOCAL_BROKERS, { timeoutMs: READY_TIMEOUT_MS, check: diedCheck(paths, livePid) });
    return { brokers: LOCAL_BROKERS, security: PLAINTEXT, startedHere: false, stop: noop };
  }
  if (await portOpen(CONTROLLER_PORT)) {
    throw new Error(
      `port ${CONTROLLER_PORT} on ${LOCAL_HOST} (the KRaft controller listener) is held by another process; ` +
        `free it (e.g. \`ss -ltnp 'sport = :${CONTROLLER_PORT}'\`) or set KAFKA_BROKERS`,
    );
  }

  const started = Date.now();
  await fetchJars(paths, log);
  await formatStorage(paths, log);
  const serverLogOffset = existsSync(paths.serverLog) ? statSync(paths.serverLog).size : 0;
  const pid = startDetached(paths);
  log(`started Kafka ${paths.version} (pid ${pid}), logs in ${paths.serverLog}`);
  try {
    await waitForCluster(LOCAL_BROKERS, { timeoutMs: READY_TIMEOUT_MS, check: diedCheck(paths, pid) });
  } catch (error) {
    signalGroup(pid, 'SIGKILL');
    rmSync(paths.pidFile, { force: true });
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n${logTails(paths)}`);
  }
  const startedLine = readServerLogSince(paths, serverLogOffset).includes('Kafka Server started');
  log(
    `Kafka ready on ${LOCAL_BROKERS.join(',')} in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (startedLine ? '' : ' (no "Kafka Server started" line yet)'),
  );
  return {
    brokers: LOCAL_BROKERS,
    security: PLAINTEXT,
    startedHere: true,
    stop: () => stopPid(paths, pid, log),
  };
}

function readServerLogSince(paths: KafkaPaths, offset: number): string {
  try {
    const text = readFileSync(paths.serverLog);
    return text.subarray(text.length >= offset ? offset : 0).toString('utf8');
  } catch {
    return '';
  }
}

function diedCheck(paths: KafkaPaths, pid: number): () => void {
  return () => {
    if (!isAlive(pid)) {
      rmSync(paths.pidFile, { force: true });
      throw new Error(`the Kafka broker (pid ${pid}) exited during startup\n${logTails(paths)}`);
    }
  };
}

/** Stops the local broker started by ensureKafka (pid file, or a matching JVM); no-op if none runs. */
export async function stopKafka(
  opts: { repoRoot?: string; log?: (line: string) => void } = {},
): Promise<void> {
  const log = opts.log ?? defaultLog;
  const paths = kafkaPaths(opts.repoRoot ?? findRepoRoot());
  const pid = readLivePid(paths) ?? findBrokerByCommandLine(paths);
  if (pid === undefined) {
    log('no local Kafka broker is running');
    return;
  }
  log(`stopping Kafka broker (pid ${pid})`);
  await stopPid(paths, pid, log);
}

/** Whether a broker answers on the configured brokers (KAFKA_BROKERS or 127.0.0.1:9092). */
export async function kafkaStatus(
  opts: { repoRoot?: string } = {},
): Promise<{ running: boolean; pid?: number; brokers: string[] }> {
  const external = externalKafka();
  if (external)
    return {
      running: await reuseIfAnswering(external.brokers, external.security),
      brokers: external.brokers,
    };
  const paths = kafkaPaths(opts.repoRoot ?? findRepoRoot());
  const pid = readLivePid(paths) ?? findBrokerByCommandLine(paths);
  const running = (await portOpen(LOCAL_PORT)) && (await reuseIfAnswering(LOCAL_BROKERS));
  return pid === undefined ? { running, brokers: LOCAL_BROKERS } : { running, pid, brokers: LOCAL_BROKERS };
}
