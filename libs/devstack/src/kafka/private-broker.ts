import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KafkaSecurity, PLAINTEXT } from '@engage/kafka';
import type { BrokerCertificates } from './certificates.ts';
import { waitForCluster } from './client.ts';
import { CuttableLink } from './cuttable-link.ts';
import {
  brokerJvmArgs,
  formatKraftStorage,
  javaCommand,
  randomClusterId,
  signalGroup,
  tail,
  waitForExit,
} from './jvm.ts';
import { findRepoRoot, kafkaPaths, LOCAL_HOST } from './paths.ts';

/**
 * A single-node KRaft broker of one test's own, for fault tests that stop and restart Kafka: its own
 * ports, cluster id and directory under the OS temp dir, the jars of the shared broker. It can be
 * stopped gracefully or killed, and started again on the same ports and data, so what it
 * acknowledged before is still there. The shared broker on 127.0.0.1:9092 is never touched.
 */
export interface PrivateKafka {
  /** `127.0.0.1:<port>`: the bootstrap list for clients. */
  readonly brokers: string[];
  /** How to reach `brokers`: plaintext, or with the `saslSsl` option its admin user over TLS. */
  readonly security: KafkaSecurity;
  readonly clusterId: string;
  /** Its data (`logs/`), generated properties and log files; deleted by destroy(). */
  readonly dir: string;
  /** The broker JVM's pid while it runs. */
  pid(): number | undefined;
  /** SIGTERM waits for the broker's own controlled shutdown; SIGKILL ends it at once. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again (same ports, same data) and waits until it answers. */
  start(): Promise<void>;
  /** Kills the broker if it runs and deletes its directory; safe to call more than once. */
  destroy(): Promise<void>;
  /** The last lines of its logs, for a failure message. */
  logs(lines?: number): string;
  /** With the `link` option: a second way in, through a link the test can cut. */
  readonly link: LinkedBrokers | undefined;
}

/**
 * The broker's client listener behind a `CuttableLink`: clients bootstrapped on `brokers` are told
 * (by the listener's advertised address) to stay on the link, so cutting it cuts them all off while
 * the broker, and clients on the direct address, go on.
 */
export interface LinkedBrokers {
  readonly brokers: string[];
  /** Drops the open connections; new ones are refused until `restore()`. */
  cut(): void;
  restore(): Promise<void>;
}

export interface PrivateKafkaOptions {
  repoRoot?: string;
  log?: (line: string) => void;
  /** JVM heap flags; small by default, the machine is shared. */
  heap?: string[];
  readyTimeoutMs?: number;
  /** Also open a client listener reached through a link the test can cut (`PrivateKafka.link`). */
  link?: boolean;
  /**
   * Clients (and the broker itself) connect over TLS and log in with SASL (SCRAM-SHA-512,
   * SCRAM-SHA-256 or PLAIN) instead of in plaintext; incompatible with `link`.
   */
  saslSsl?: SaslSslListener;
}

export interface SaslSslListener {
  certificates: BrokerCertificates;
  /** Users besides the broker's own admin, each known to every mechanism. */
  users: Array<{ username: string; password: string }>;
}

/** The user the broker logs in to itself as, and the one `PrivateKafka.security` names. */
const ADMIN = { username: 'admin', password: 'admin-secret' };
const SCRAM_MECHANISMS = ['SCRAM-SHA-512', 'SCRAM-SHA-256'] as const;

const DEFAULT_HEAP = ['-Xms128m', '-Xmx512m'];
/** A test broker serves a few small topics: the C1 compiler alone starts faster and burns less CPU. */
const TEST_JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1'];
const STOP_TIMEOUT_MS = 30_000;

export async function startPrivateKafka(options: PrivateKafkaOptions = {}): Promise<PrivateKafka> {
  const log = options.log ?? (() => {});
  const shared = kafkaPaths(options.repoRoot ?? findRepoRoot());
  if (!existsSync(shared.libsMarker) || readFileSync(shared.libsMarker, 'utf8').trim() !== shared.version) {
    throw new Error(
      `the Kafka ${shared.version} jars are not in ${shared.libsDir}: run \`npm run kafka -- start\``,
    );
  }
  if (options.saslSsl && options.link) throw new Error('a private broker takes either saslSsl or link');
  const dir = mkdtempSync(join(tmpdir(), 'engage-kafka-'));
  const watchdog = startWatchdog(dir);
  let child: ChildProcess | undefined;
  let destroyed = false;
  let link: CuttableLink | undefined;
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    link?.cut();
    if (child) await kill(child, 'SIGKILL');
    await watchdog.end();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [port, controllerPort, linkedPort, linkPort] = await freePorts(options.link ? 4 : 2);
    const brokers = [`${LOCAL_HOST}:${port}`];
    const security = options.saslSsl ? adminSecurity(options.saslSsl) : PLAINTEXT;
    if (linkedPort !== undefined && linkPort !== undefined) {
      link = new CuttableLink(LOCAL_HOST, linkPort, { host: LOCAL_HOST, port: linkedPort });
      await link.restore();
    }
    const clusterId = randomClusterId();
    const properties = join(dir, 'server.properties');
    writeFileSync(
      properties,
      privateServerProperties(readFileSync(shared.serverProperties, 'utf8'), dir, {
        port,
        controllerPort,
        link,
        saslSsl: options.saslSsl,
      }),
    );
    const jvm = { libsDir: shared.libsDir, log4jConfig: shared.log4jConfig, logsDir: dir };
    const classes = classDataSharing(join(shared.cacheDir, shared.version, 'private-broker.jsa'), dir);
    await formatKraftStorage({
      ...jvm,
      clusterId,
      properties,
      cwd: dir,
      log,
      jvmFlags: [...TEST_JVM_FLAGS, ...classes.readOnlyFlags()],
      formatArgs: options.saslSsl ? scramCredentials(options.saslSsl) : [],
    });

    const logs = (lines = 30) =>
      [
        `--- server.log ---`,
        tail(join(dir, 'server.log'), lines),
        `--- broker.out ---`,
        tail(join(dir, 'broker.out'), lines),
      ].join('\n');
    const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

    const start = async () => {
      if (destroyed) throw new Error('this private broker was destroyed');
      if (running()) return;
      const out = openSync(join(dir, 'broker.out'), 'a');
      try {
        // `ulimit` raises the soft open-file limit to the hard one: a broker keeps files open per partition.
        child = spawn(
          'sh',
          [
            '-c',
            'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"',
            'sh',
            javaCommand(),
            ...brokerJvmArgs({ heap: options.heap ?? DEFAULT_HEAP, ...jvm }),
            ...TEST_JVM_FLAGS,
            ...classes.flags(),
            'kafka.Kafka',
            properties,
          ],
          { cwd: dir, detached: true, stdio: ['ignore', out, out] },
        );
      } finally {
        closeSync(out);
      }
      const started = child;
      started.on('error', () => {}); // seen as an early exit below
      started.unref();
      watchdog.watch(started.pid);
      log(`private Kafka (pid ${started.pid}) starting on ${brokers[0]} in ${dir}`);
      try {
        await waitForCluster(brokers, {
          security,
          timeoutMs: options.readyTimeoutMs ?? 90_000,
          check: () => {
            if (!running()) throw new Error(`the private Kafka broker exited during startup\n${logs()}`);
          },
        });
      } catch (error) {
        await kill(started, 'SIGKILL');
        throw error;
      }
    };

    const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
      if (!child || !running()) return;
      log(`private Kafka (pid ${child.pid}): ${signal}`);
      await kill(child, signal);
      watchdog.watch(undefined);
      classes.keep(child);
    };

    await start();
    return {
      brokers,
      security,
      clusterId,
      dir,
      pid: () => (running() ? child?.pid : undefined),
      start,
      stop,
      logs,
      destroy,
      link,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}

/**
 * The shared broker's properties with this broker's listeners and directory. With a link, a third
 * listener (LINKED) binds the link's target port and advertises the port the link listens on.
 */
function privateServerProperties(
  template: string,
  dir: string,
  listening: {
    port: number;
    controllerPort: number;
    link: CuttableLink | undefined;
    saslSsl: SaslSslListener | undefined;
  },
) {
  const { port, controllerPort, link, saslSsl } = listening;
  if (saslSsl) {
    const secured = [`SASL_SSL://${LOCAL_HOST}:${port}`, `CONTROLLER://${LOCAL_HOST}:${controllerPort}`];
    return withOverrides(template, {
      ...privateBrokerOverrides(dir, controllerPort),
      listeners: secured.join(','),
      'advertised.listeners': secured.join(','),
      'listener.security.protocol.map': 'SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT',
      'inter.broker.listener.name': 'SASL_SSL',
      ...saslSslProperties(saslSsl),
    });
  }
  const listeners = [`PLAINTEXT://${LOCAL_HOST}:${port}`, `CONTROLLER://${LOCAL_HOST}:${controllerPort}`];
  const advertised = [...listeners];
  if (link) {
    listeners.push(`LINKED://${LOCAL_HOST}:${link.target.port}`);
    advertised.push(`LINKED://${link.brokers[0]}`);
  }
  return withOverrides(template, {
    listeners: listeners.join(','),
    'advertised.listeners': advertised.join(','),
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,LINKED:PLAINTEXT',
    ...privateBrokerOverrides(dir, controllerPort),
  });
}

function privateBrokerOverrides(dir: string, controllerPort: number): Record<string, string> {
  return {
    'controller.quorum.bootstrap.servers': `${LOCAL_HOST}:${controllerPort}`,
    'log.dirs': join(dir, 'logs'),
    // After a SIGKILL the restarted broker cannot register until the controller has expired its
    // previous session (9 s by default): a short session makes a restart take seconds, not ten.
    'broker.session.timeout.ms': '3000',
    'broker.heartbeat.interval.ms': '500',
  };
}

/**
 * TLS from a PEM key store, and SASL with SCRAM (credentials stored in the cluster's metadata at
 * format time) and PLAIN (users listed in the JAAS entry). The broker logs in to itself with SCRAM.
 */
function saslSslProperties(saslSsl: SaslSslListener): Record<string, string> {
  const jaas = (module: string, options: Record<string, string>) =>
    `org.apache.kafka.common.security.${module} required ${Object.entries(options)
      .map(([key, value]) => `${key}="${value}"`)
      .join(' ')};`;
  const admin = { username: ADMIN.username, password: ADMIN.password };
  const plainUsers = Object.fromEntries(
    [ADMIN, ...saslSsl.users].map((user) => [`user_${user.username}`, user.password]),
  );
  return {
    'ssl.keystore.type': 'PEM',
    'ssl.keystore.location': saslSsl.certificates.brokerKeyStoreFile,
    // What the broker trusts when it connects to itself (and checks its own settings at start).
    'ssl.truststore.type': 'PEM',
    'ssl.truststore.location': saslSsl.certificates.caFile,
    'sasl.enabled.mechanisms': [...SCRAM_MECHANISMS, 'PLAIN'].join(','),
    'sasl.mechanism.inter.broker.protocol': 'SCRAM-SHA-512',
    'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config': jaas('scram.ScramLoginModule', admin),
    'listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config': jaas('scram.ScramLoginModule', admin),
    'listener.name.sasl_ssl.plain.sasl.jaas.config': jaas('plain.PlainLoginModule', {
      ...admin,
      ...plainUsers,
    }),
  };
}

/** StorageTool's `--add-scram` arguments: every user, the admin too, for both SCRAM mechanisms. */
function scramCredentials(saslSsl: SaslSslListener): string[] {
  return [ADMIN, ...saslSsl.users].flatMap((user) =>
    SCRAM_MECHANISMS.flatMap((mechanism) => [
      '--add-scram',
      `${mechanism}=[name=${user.username},password=${user.password}]`,
    ]),
  );
}

function adminSecurity(saslSsl: SaslSslListener): KafkaSecurity {
  return {
    protocol: 'SASL_SSL',
    tls: { ca: readFileSync(saslSsl.certificates.caFile, 'utf8') },
    sasl: { mechanism: 'SCRAM-SHA-512', ...ADMIN },
  };
}

/**
 * Class data sharing: the JVM maps the broker's classes from an archive instead of loading and
 * verifying them one by one, which takes about half the CPU of a start. The first broker that
 * stops gracefully writes the archive (next to the jars, for every later run); a JVM or jar that
 * no longer matches it makes the JVM ignore it and start the slow way.
 */
function classDataSharing(archive: string, dir: string) {
  const written = join(dir, 'classes.jsa');
  let writing = false;
  return {
    /** For other tools from the same jars (StorageTool): use the archive if there is one. */
    readOnlyFlags: (): string[] => (existsSync(archive) ? [`-XX:SharedArchiveFile=${archive}`] : []),
    flags(): string[] {
      writing = !existsSync(archive);
      return writing ? [`-XX:ArchiveClassesAtExit=${written}`] : [`-XX:SharedArchiveFile=${archive}`];
    },
    /** After an exit: keeps the archive the JVM wrote, unless it was killed (maybe mid-write). */
    keep(exited: ChildProcess) {
      if (!writing || exited.signalCode === 'SIGKILL' || !existsSync(written) || existsSync(archive)) return;
      const partial = `${archive}.${process.pid}.tmp`;
      try {
        copyFileSync(written, partial);
        renameSync(partial, archive);
      } catch {
        rmSync(partial, { force: true }); // only slower starts
      }
    },
  };
}

/** Signals the broker's process group and waits for it to exit; SIGTERM falls back to SIGKILL. */
async function kill(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, 'exit');
  child.ref(); // keep the test process alive until the broker is gone
  signalGroup(child.pid, signal);
  const timeout = signal === 'SIGTERM' ? STOP_TIMEOUT_MS : 10_000;
  const done = await Promise.race([exited.then(() => true), waitForExit(child.pid, timeout)]);
  if (!done) signalGroup(child.pid, 'SIGKILL');
  await exited;
  child.unref();
}

/**
 * A shell that outlives the test process: it is told the broker's pid on every start and, once
 * its stdin closes (the test finished with the broker, or died without cleaning up), kills the
 * broker it was last told about and deletes the directory. No JVM or data is left behind.
 */
function startWatchdog(dir: string) {
  const shell = spawn(
    'sh',
    [
      '-c',
      'pid=; while read -r line; do pid=$line; done; [ -n "$pid" ] && kill -9 -"$pid" 2>/dev/null; rm -rf "$1"',
      'sh',
      dir,
    ],
    { detached: true, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  shell.on('error', () => {});
  shell.stdin.on('error', () => {});
  shell.unref();
  (shell.stdin as unknown as { unref?: () => void }).unref?.();
  return {
    watch(pid: number | undefined) {
      shell.stdin.write(`${pid ?? ''}\n`);
    },
    async end() {
      if (shell.exitCode !== null || shell.signalCode !== null) return;
      const exited = once(shell, 'exit');
      shell.ref();
      shell.stdin.end('\n');
      await exited;
    },
  };
}

/** Replaces (or appends) `key=value` lines of a properties file. */
export function withOverrides(properties: string, overrides: Record<string, string>): string {
  const left = new Map(Object.entries(overrides));
  const lines = properties
    .trimEnd()
    .split('\n')
    .map((line) => {
      const key = /^\s*([^#!\s=:][^=:\s]*)\s*[=:]/.exec(line)?.[1];
      if (key === undefined || !left.has(key)) return line;
      const value = left.get(key)!;
      left.delete(key);
      return `${key}=${value}`;
    });
  for (const [key, value] of left) lines.push(`${key}=${value}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `count` ports free now, below the kernel's ephemeral range: while the broker (or the link) is
 * down, no outgoing connection can be given its port, so a restart binds the same ports again.
 */
export async function freePorts(count: number): Promise<[number, number, ...number[]]> {
  const high = Math.min(ephemeralRangeStart(), 32_768);
  const found: number[] = [];
  for (let attempt = 0; found.length < count && attempt < 400; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * (high - 20_000));
    if (!found.includes(port) && (await canListen(port))) found.push(port);
  }
  if (found.length < count) throw new Error(`no ${count} free ports below the ephemeral range`);
  return [found[0]!, found[1]!, ...found.slice(2)];
}

function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 20_100 ? low : 32_768;
  } catch {
    return 32_768; // not Linux: the IANA dynamic range starts at 49152, so this stays below it
  }
}

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port, LOCAL_HOST);
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}
