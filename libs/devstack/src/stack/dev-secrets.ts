import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Local-only state of `npm start`, kept in the git-ignored .cache/dev folder. */
export function devStatePath(repoRoot: string, file: string): string {
  return join(repoRoot, '.cache', 'dev', file);
}

/** The admin token of the local stack: ADMIN_TOKEN when set, else one generated once and kept. */
export function devAdminToken(repoRoot: string): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = devStatePath(repoRoot, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(24).toString('base64url');
  writeState(file, token);
  return token;
}

export function readJsonState<T>(repoRoot: string, file: string): T | undefined {
  const path = devStatePath(repoRoot, file);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

export function writeJsonState(repoRoot: string, file: string, value: unknown): void {
  writeState(devStatePath(repoRoot, file), `${JSON.stringify(value, null, 2)}\n`);
}

function writeState(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode: 0o600 });
}
