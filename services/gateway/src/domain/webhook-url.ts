import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether the gateway may send to `url`: https always; plain http only to a loopback host, and only
 * when insecure URLs are allowed (development and tests). Answers the reason it may not, or undefined.
 */
export function webhookUrlRefusal(url: string, allowInsecure: boolean): string | undefined {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return 'must not carry credentials; sign-in data goes in the path';
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol !== 'http:') return 'must be an https URL';
  if (!allowInsecure) return 'must be an https URL';
  const host = parsed.hostname;
  const loopback = LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
  return loopback ? undefined : 'http is allowed to a loopback host only; use https';
}
