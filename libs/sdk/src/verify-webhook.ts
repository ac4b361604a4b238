import type { components } from './api.ts';

type Schemas = components['schemas'];

/** One delivery's body: `{ id, type, timestamp, environmentId, data }`, narrowed by `type`. */
export type WebhookEvent = Schemas[Extract<keyof Schemas, `WebhookPayload${string}`>];

/** Why a delivery was refused; `verifyWebhook` throws a `WebhookVerificationError` carrying one. */
export type WebhookVerificationReason =
  /** `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty. */
  | 'missing_header'
  /** `webhook-timestamp` is not whole unix seconds. */
  | 'invalid_timestamp'
  /** Signed longer ago than the tolerance: a replay of an old delivery, or a very late one. */
  | 'timestamp_too_old'
  /** Signed further in the future than the tolerance: a clock is wrong. */
  | 'timestamp_too_new'
  /** A secret is not `whsec_` and base64. */
  | 'invalid_secret'
  /** No `v1` signature in the header matches the body under any of the secrets. */
  | 'no_matching_signature'
  /** The signature matched but the body is not UTF-8 JSON. */
  | 'invalid_payload';

/** A delivery that must not be trusted; `reason` says which check refused it. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface VerifyWebhookInput {
  /** The body exactly as received, before any JSON parsing (a string or its bytes). */
  body: string | Uint8Array;
  /** The request's headers: a fetch `Headers`, or a record such as Node's `request.headers`. */
  headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The endpoint's secret (`whsec_…`), or several while you roll a rotated secret out to your
   * receivers: a delivery signed by any of them is accepted.
   */
  secret: string | readonly string[];
  /** How far `webhook-timestamp` may be from `now`, either way (default 300 s, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** The receiver's clock (default the current time). */
  now?: Date;
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

/**
 * Verifies one engage webhook delivery on the Standard Webhooks scheme and answers its parsed body.
 * The `webhook-signature` header lists space-separated `v1,<base64>` signatures (two during a secret
 * rotation); each is an HMAC-SHA256, keyed by the base64 after `whsec_`, of
 * `{webhook-id}.{webhook-timestamp}.{body}`. The delivery is accepted when any of them matches under
 * any of the secrets and its timestamp is within the tolerance of `now`; otherwise this throws a
 * `WebhookVerificationError` whose `reason` says why; secrets are checked first, as they are the
 * receiver's own configuration. Signatures are compared by `crypto.subtle.verify`, in constant
 * time; with Web Crypto rather than node:crypto this runs on Node 20+, Deno, Bun and workers alike.
 *
 * Deliveries arrive at least once: deduplicate on the answer's `id` (equal to `webhook-id`).
 */
export async function verifyWebhook<T = WebhookEvent>(input: VerifyWebhookInput): Promise<T> {
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  if (secrets.length === 0) throw new WebhookVerificationError('invalid_secret', 'no webhook secret given');
  const keys = await Promise.all(secrets.map(hmacKey));
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');

  if (!/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError(
      'invalid_timestamp',
      `webhook-timestamp "${timestamp}" is not unix seconds`,
    );
  }
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const ageSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000) - Number(timestamp);
  if (ageSeconds > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `webhook-timestamp is ${ageSeconds} s old, more than the ${tolerance} s tolerated`,
    );
  }
  if (-ageSeconds > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `webhook-timestamp is ${-ageSeconds} s in the future, more than the ${tolerance} s tolerated`,
    );
  }

  const body = typeof input.body === 'string' ? encoder.encode(input.body) : input.body;
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
  const candidates = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => fromBase64(s.slice('v1,'.length)))
    .filter((s): s is Uint8Array<ArrayBuffer> => s !== undefined);
  for (const key of keys) {
    for (const candidate of candidates) {
      if (await crypto.subtle.verify('HMAC', key, candidate, signed)) return parse<T>(body);
    }
  }
  throw new WebhookVerificationError(
    'no_matching_signature',
    candidates.length === 0
      ? 'webhook-signature holds no v1 signature'
      : `none of the ${candidates.length} v1 signature(s) matches the body under the secret(s) given`,
  );
}

function header(headers: VerifyWebhookInput['headers'], name: string): string {
  const value = isHeaders(headers) ? headers.get(name) : headers[name];
  const text = typeof value === 'string' ? value : value?.join(' ');
  if (!text) throw new WebhookVerificationError('missing_header', `the ${name} header is missing`);
  return text.trim();
}

function isHeaders(headers: VerifyWebhookInput['headers']): headers is Headers {
  return typeof (headers as Headers).get === 'function';
}

async function hmacKey(secret: string) {
  const bytes = secret.startsWith('whsec_') ? fromBase64(secret.slice('whsec_'.length)) : undefined;
  if (!bytes || bytes.length === 0) {
    throw new WebhookVerificationError('invalid_secret', 'a webhook secret is "whsec_" followed by base64');
  }
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

/** The bytes of standard base64, or undefined when `text` is not base64. */
function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function parse<T>(body: Uint8Array): T {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as T;
  } catch (err) {
    throw new WebhookVerificationError(
      'invalid_payload',
      `the signed body is not UTF-8 JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
