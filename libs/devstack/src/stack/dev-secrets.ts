import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Local-only state of `npm start`, kept in the git-ignored .cache/dev folder (or ENGAGE_STATE_DIR). */
export function devStatePath(repoRoot: string, file: string): string {
  return join(process.env.ENGAGE_STATE_DIR || join(repoRoot, '.cache', 'dev'), file);
}

/** The admin token of the local stack: ADMIN_TOKEN when set, else one generated once and kept. */
export function devAdminToken(repoRoot: string): string {
  return process.env.ADMIN_TOKEN || keptSecret(repoRoot, 'admin-token', 24);
}

/**
 * The secret the local gateway signs its calls to rules, ledger and query with:
 * INTERNAL_AUTH_SECRET when set, else one generated once and kept.
 */
export function devInternalAuthSecret(repoRoot: string): string {
  return process.env.INTERNAL_AUTH_SECRET || keptSecret(repoRoot, 'internal-auth-secret', 32);
}

/** The password of the demo organization's first Owner (owner@demo.local): generated once and kept. */
export function devDemoOwnerPassword(repoRoot: string): string {
  return keptSecret(repoRoot, 'demo-owner-password', 18);
}

function keptSecret(repoRoot: string, file: string, bytes: number): string {
  const path = devStatePath(repoRoot, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(bytes).toString('base64url');
  writeState(path, secret);
  return secret;
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
