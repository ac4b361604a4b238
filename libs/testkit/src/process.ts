import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createCatalogTopics, freePorts } from '@engage/devstack';

export interface ServiceProcess {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  /** Where its GET /metrics answers (a port apart from the API's). */
  readonly metricsUrl: string;
  pid(): number | undefined;
  /** Whether the process runs now (false once it exited, by a signal or on its own). */
  isRunning(): boolean;
  /** Everything the process wrote to stdout and stderr so far. */
  logs(): string;
  /** Sends a signal (SIGKILL by default) and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM, then wait for the graceful shutdown to finish. */
  stop(): Promise<number | null>;
  /** Starts the same service again on the same ports with the same environment. */
  restart(): Promise<void>;
}

const spawned: ServiceProcess[] = [];

/** Every service process this test file spawned (running or not), for reports of failed tests. */
export function spawnedServices(): readonly ServiceProcess[] {
  return spawned;
}

/** How often a process that lost its ports to another between choosing and binding is started again. */
const PORT_RACE_ATTEMPTS = 3;

/**
 * Runs `node services/<name>/src/main.ts` as its own process (the real binary, the real servers)
 * and waits until its /readyz answers 200 (90 s by default: on a loaded 2-core machine, with other
 * stacks starting at the same time, a process can take well over 30 s to be ready).
 */
export async function spawnService(
  repoRoot: string,
  name: string,
  env: Record<string, string>,
  options: {
    port?: number;
    metricsPort?: number;
    readyTimeoutMs?: number;
    /** Runs the process as this user and group (the caller must be root to switch). */
    user?: { uid: number; gid: number };
    /** Options for node itself, before the entry point (for example `--cpu-prof`). */
    nodeArgs?: string[];
  } = {},
): Promise<ServiceProcess> {
  // A gateway reads its state topics whole before it listens: on a plaintext broker, they are
  // created under its prefix if the test did not (a secured broker's test creates its own).
  if (name === 'gateway' && env.KAFKA_TOPIC_PREFIX && env.KAFKA_BROKERS && !env.KAFKA_SECURITY_PROTOCOL) {
    await createCatalogTopics(env.KAFKA_BROKERS.split(','), env.KAFKA_TOPIC_PREFIX);
  }
  // Below the kernel's ephemeral range: while the process is down (killed, to be restarted), no
  // outgoing connection of another test can be given its port, so `restart` binds the same again.
  const [chosenPort, chosenMetricsPort] = await freePorts(2);
  let port = options.port ?? chosenPort!;
  let url = `http://127.0.0.1:${port}`;
  let metricsPort = options.metricsPort ?? chosenMetricsPort!;
  let output = '';
  let child: ChildProcess;

  const start = async () => {
    const entry = join(repoRoot, 'services', name, 'src', 'main.ts');
    child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
      cwd: repoRoot,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        ...compileCache(repoRoot, options.user),
        ...env,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options.user,
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitReady(url, child, options.readyTimeoutMs ?? 90_000, () => output, name);
  };
  // A port chosen free can be taken by another test's process before this one binds it.
  const startOnFreePorts = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await start();
      } catch (err) {
        const raced = output.includes('EADDRINUSE') && !options.port && !options.metricsPort;
        if (!raced || attempt === PORT_RACE_ATTEMPTS) throw err;
        [port, metricsPort] = await freePorts(2);
        url = `http://127.0.0.1:${port}`;
        output = '';
      }
    }
  };

  const waitExit = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const [code] = (await once(child, 'exit')) as [number | null];
    return code;
  };

  await startOnFreePorts();
  const service: ServiceProcess = {
    name,
    url,
    port,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    pid: () => child.pid,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    logs: () => output,
    kill: async (signal = 'SIGKILL') => {
      child.kill(signal);
      await waitExit();
    },
    stop: async () => {
      child.kill('SIGTERM');
      return waitExit();
    },
    restart: start,
  };
  spawned.push(service);
  return service;
}

/**
 * Node keeps the services' type-stripped and compiled modules here between starts: test stacks start
 * the same services hundreds of times, and stripping their TypeScript again is a good part of each
 * start. Not for a process run as another user, who may not write the runner's directory.
 */
function compileCache(repoRoot: string, user: { uid: number; gid: number } | undefined) {
  return user ? {} : { NODE_COMPILE_CACHE: join(repoRoot, 'node_modules', '.cache', 'node-compile-cache') };
}

async function waitReady(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  logs: () => string,
  name: string,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with ${child.exitCode} before it was ready:\n${logs()}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${logs()}`);
}
