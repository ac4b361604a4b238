import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console's root folder and its build, which the gateway serves at /console/. */
export const CONSOLE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');
const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];

function newestChange(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** True when a source is newer than the build (or there is no build). */
export function consoleBuildIsStale(): boolean {
  const built = statSync(join(CONSOLE_DIST, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return Math.max(...SOURCES.map((source) => newestChange(join(CONSOLE_ROOT, source)))) > built;
}

/**
 * Builds the console with Vite in a process of its own: a caller's NODE_ENV (vitest's `test`)
 * would otherwise give the build React's development files.
 */
export function buildConsole(): void {
  execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

if (import.meta.main) {
  const { build } = await import('vite');
  await build({ root: CONSOLE_ROOT, configFile: join(CONSOLE_ROOT, 'vite.config.ts'), logLevel: 'warn' });
  process.stdout.write(`built the console into ${CONSOLE_DIST}\n`);
}
