import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What the local brokers (the shared one and the private ones of fault tests) have in common. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function javaCommand(): string {
  const home = process.env.JAVA_HOME;
  return home && existsSync(join(home, 'bin', 'java')) ? join(home, 'bin', 'java') : 'java';
}

/** The broker JVM's flags before the main class: a small heap, short GC pauses, log4j into `logsDir`. */
export function brokerJvmArgs(options: {
  heap: string[];
  log4jConfig: string;
  logsDir: string;
  libsDir: string;
}): string[] {
  return [
    ...options.heap,
    '-XX:+UseG1GC',
    '-XX:MaxGCPauseMillis=20',
    '-Djava.awt.headless=true',
    ...log4jArgs(options.log4jConfig, options.logsDir),
    '-cp',
    `${options.libsDir}/*`,
  ];
}

export function log4jArgs(log4jConfig: string, logsDir: string): string[] {
  return [`-Dlog4j2.configurationFile=${log4jConfig}`, `-Dkafka.logs.dir=${logsDir}`];
}

/** Runs a command to completion, forwarding its output line by line; rejects on a non-zero exit. */
export function run(
  command: string,
  args: string[],
  opts: { cwd: string; log: (line: string) => void; prefix?: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const forward = (stream: NodeJS.ReadableStream) =>
      createInterface({ input: stream }).on('line', (raw) => {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
        const line = raw.replace(/\u001b\[[0-9;]*m/g, '').trimEnd();
        if (line) opts.log(`${opts.prefix ?? ''}${line}`);
      });
    forward(child.stdout);
    forward(child.stderr);
    child.once('error', (error) => {
      const hint =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? ` (is ${command} installed and on PATH?)` : '';
      reject(new Error(`cannot run ${command}: ${error.message}${hint}`));
    });
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed with ${signal ?? `exit code ${code}`}`));
    });
  });
}

/** Formats a KRaft log directory for a single combined broker and controller (`--standalone`). */
export async function formatKraftStorage(options: {
  libsDir: string;
  log4jConfig: string;
  logsDir: string;
  clusterId: string;
  /** A complete server.properties naming the log.dirs to format (StorageTool has no --override). */
  properties: string;
  cwd: string;
  log: (line: string) => void;
  jvmFlags?: string[];
  /** More StorageTool arguments (e.g. `--add-scram`). */
  formatArgs?: string[];
}): Promise<void> {
  await run(
    javaCommand(),
    [
      ...(options.jvmFlags ?? []),
      ...log4jArgs(options.log4jConfig, options.logsDir),
      '-cp',
      `${options.libsDir}/*`,
      'kafka.tools.StorageTool',
      'format',
      '--standalone',
      '--ignore-formatted',
      '-t',
      options.clusterId,
      '-c',
      options.properties,
      ...(options.formatArgs ?? []),
    ],
    { cwd: options.cwd, log: options.log, prefix: 'storage: ' },
  );
}

/** Kafka cluster ids are 16 random bytes in unpadded base64url that must not start with '-'. */
export function randomClusterId(): string {
  for (;;) {
    const id = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/** Signals a detached process's whole group, or the process alone when it has none. */
export function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

export function tail(file: string, lines = 40): string {
  try {
    const text = readFileSync(file, 'utf8');
    return text
      .split('\n')
      .slice(-lines - 1)
      .join('\n')
      .trimEnd();
  } catch {
    return `(no ${file})`;
  }
}
