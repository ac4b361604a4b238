import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface SupervisedProcess {
  name: string;
  url: string;
  child: ChildProcess;
}

const COLORS = [36, 35, 33, 32, 34];

/**
 * Runs one service as a child process, prefixing each line it prints with its name, and resolves
 * once its /readyz answers 200.
 */
export async function startSupervised(options: {
  name: string;
  entry: string;
  port: number;
  env: Record<string, string>;
  cwd: string;
  colorIndex: number;
  readyTimeoutMs?: number;
}): Promise<SupervisedProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, [options.entry], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const color = COLORS[options.colorIndex % COLORS.length];
  const tag = process.stdout.isTTY
    ? `\x1b[${color}m${options.name.padEnd(8)}\x1b[0m`
    : options.name.padEnd(8);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${tag} | ${line}\n`));
  }
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${options.name} exited with code ${child.exitCode} while starting`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { name: options.name, url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${options.name} was not ready at ${url}/readyz in time`);
}

/** SIGTERM to each process, newest first, waiting for each graceful shutdown (SIGKILL after a bound). */
export async function stopSupervised(processes: SupervisedProcess[], timeoutMs = 30_000): Promise<void> {
  for (const p of [...processes].reverse()) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
    p.child.kill('SIGTERM');
    const timer = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs);
    await once(p.child, 'exit');
    clearTimeout(timer);
  }
}
