import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { INTERNAL_HEADERS } from '@engage/contracts';

/**
 * The gateway's signature on the calls it makes to rules, ledger and query: HMAC-SHA256, under a
 * secret only the four services hold, over the method, the path and query, the time of signing,
 * the environment and player headers and the body's digest. A captured signature is good for the
 * same call only, and only within the window.
 */

/** How far a signature's time may lie from the verifier's clock, either way. */
export const SIGNATURE_WINDOW_MS = 30_000;

/** RFC 9530 Content-Digest of the body: sent (and signed) with every call that has a body. */
export const CONTENT_DIGEST_HEADER = 'content-digest';

const SIGNED_HEADERS = [
  INTERNAL_HEADERS.organizationId,
  INTERNAL_HEADERS.environmentId,
  INTERNAL_HEADERS.environmentKind,
  INTERNAL_HEADERS.player,
  CONTENT_DIGEST_HEADER,
] as const;

const SIGNATURE_BYTES = 32;

type HeaderValue = string | string[] | number | undefined;

export interface InternalCall {
  method: string;
  /** Path and query, exactly as on the request line. */
  url: string;
  headers: Readonly<Record<string, HeaderValue>>;
}

export function contentDigest(body: string | Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** Signs calls with the current secret. The key is imported once, not per call. */
export class InternalSigner {
  readonly #key: KeyObject;

  constructor(secret: string) {
    this.#key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** The call's headers with its body digest, time of signing and signature added. */
  sign(
    call: {
      method: string;
      url: string;
      headers: Record<string, string>;
      body?: string | Buffer | undefined;
    },
    now: number = Date.now(),
  ): Record<string, string> {
    const headers = { ...call.headers };
    if (call.body !== undefined && call.body.length > 0)
      headers[CONTENT_DIGEST_HEADER] = contentDigest(call.body);
    const signedAt = String(now);
    headers[INTERNAL_HEADERS.signedAt] = signedAt;
    headers[INTERNAL_HEADERS.signature] = mac(this.#key, { ...call, headers }, signedAt).toString(
      'base64url',
    );
    return headers;
  }
}

export type SignatureCheck = 'valid' | 'unsigned' | 'outside_window' | 'mismatch';

/** Checks calls against the current secret and, during a rotation, the previous one. */
export class InternalVerifier {
  readonly #keys: KeyObject[];
  readonly #windowMs: number;

  constructor(secrets: readonly string[], windowMs: number = SIGNATURE_WINDOW_MS) {
    if (secrets.length === 0) throw new Error('InternalVerifier needs at least one secret');
    this.#keys = secrets.map((secret) => createSecretKey(Buffer.from(secret, 'utf8')));
    this.#windowMs = windowMs;
  }

  verify(call: InternalCall, now: number = Date.now()): SignatureCheck {
    const signedAt = first(call.headers[INTERNAL_HEADERS.signedAt]);
    const signature = first(call.headers[INTERNAL_HEADERS.signature]);
    if (!signedAt || !signature) return 'unsigned';
    const at = /^\d{1,15}$/.test(signedAt) ? Number(signedAt) : Number.NaN;
    if (!(Math.abs(now - at) <= this.#windowMs)) return 'outside_window';
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== SIGNATURE_BYTES) return 'mismatch';
    for (const key of this.#keys) {
      if (timingSafeEqual(mac(key, call, signedAt), given)) return 'valid';
    }
    return 'mismatch';
  }
}

function mac(key: KeyObject, call: InternalCall, signedAt: string): Buffer {
  // Header values cannot hold a line feed, so the lines cannot be shifted into one another.
  let text = `engage-internal-v1\n${call.method.toUpperCase()}\n${call.url}\n${signedAt}`;
  for (const name of SIGNED_HEADERS) text += `\n${first(call.headers[name])}`;
  return createHmac('sha256', key).update(text).digest();
}

function first(value: HeaderValue): string {
  return String((Array.isArray(value) ? value[0] : value) ?? '');
}
