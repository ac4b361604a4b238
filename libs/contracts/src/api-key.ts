import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EnvironmentKind } from './http/internal.ts';

/**
 * Project API keys: `eng_<sandbox|live>_<publicId>_<secret>`. The marker tells a Live key from a
 * Sandbox one at a glance; the public id finds the key's row; only the SHA-256 of the secret is stored.
 */

const MARKERS = { Sandbox: 'sandbox', Live: 'live' } as const satisfies Record<EnvironmentKind, string>;
const PUBLIC_ID_BYTES = 8;
const SECRET_BYTES = 32;
const KEY_PATTERN = /^eng_(sandbox|live)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface ParsedApiKey {
  kind: EnvironmentKind;
  publicId: string;
  secret: string;
}

export interface GeneratedApiKey extends ParsedApiKey {
  /** The whole key, shown to the caller once. */
  key: string;
  secretSha256: Buffer;
}

export function generateApiKey(kind: EnvironmentKind): GeneratedApiKey {
  const publicId = randomBytes(PUBLIC_ID_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return {
    kind,
    publicId,
    secret,
    key: formatApiKey({ kind, publicId, secret }),
    secretSha256: hashSecret(secret),
  };
}

export function formatApiKey(key: ParsedApiKey): string {
  return `eng_${MARKERS[key.kind]}_${key.publicId}_${key.secret}`;
}

/** The key from an Authorization header value, with or without a `Bearer ` prefix; undefined when malformed. */
export function parseApiKey(header: string | undefined): ParsedApiKey | undefined {
  if (!header) return undefined;
  const token = header.replace(/^Bearer\s+/i, '').trim();
  const match = KEY_PATTERN.exec(token);
  if (!match) return undefined;
  const [, marker, publicId, secret] = match;
  return { kind: marker === 'live' ? 'Live' : 'Sandbox', publicId: publicId!, secret: secret! };
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedSha256: Buffer): boolean {
  const presented = hashSecret(secret);
  return presented.length === storedSha256.length && timingSafeEqual(presented, storedSha256);
}
