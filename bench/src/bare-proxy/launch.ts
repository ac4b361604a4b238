import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { EnvironmentContext } from '@engage/contracts';
import type { BenchStack } from '../stack.ts';

export interface BareProxy {
  url: string;
  pid(): number | undefined;
  stop(): Promise<void>;
}

const STARTED_WITHIN_MS = 30_000;

/** Starts the bare forwarding proxy (server.ts) as a process of its own, in front of the stack's owning services. */
export async function startBareProxy(
  stack: BenchStack,
  environment: EnvironmentContext,
  connections: number,
): Promise<BareProxy> {
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, 'server.ts')], {
    env: {
      ...process.env,
      BARE_PROXY_ENVIRONMENT: JSON.stringify(environment),
      BARE_PROXY_CONNECTIONS: String(connections),
      INTERNAL_AUTH_SECRET: stack.internalAuthSecret,
      RULES_URL: stack.services.rules!.url,
      LEDGER_URL: stack.services.ledger!.url,
      QUERY_URL: stack.services.query!.url,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bare proxy did not start')), STARTED_WITHIN_MS);
    child.once('exit', (code) => reject(new Error(`the bare proxy exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(Number(port));
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: () => child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
