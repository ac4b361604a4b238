import { isIP } from 'node:net';
import { isRefusedHost, REFUSED_ADDRESS_TEXT } from './address.ts';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface WebhookUrlRules {
  /** Plain http to a loopback host (development and tests). */
  allowInsecure: boolean;
  /** Receivers on addresses that are not public (a deployment sending to its own services). */
  allowPrivateAddresses: boolean;
}

/**
 * Whether the gateway may send to `url`: https always; plain http only to a loopback host, and only
 * when insecure URLs are allowed (development and tests). An address written in the URL must be
 * public unless private addresses are allowed; a name is checked on what it resolves to at every
 * connection (publicOnlyLookup). Answers the reason it may not, or undefined.
 */
export function webhookUrlRefusal(url: string, rules: WebhookUrlRules): string | undefined {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return 'must not carry credentials; sign-in data goes in the path';
  if (parsed.protocol === 'https:') {
    return !rules.allowPrivateAddresses && isRefusedHost(parsed.hostname) ? REFUSED_ADDRESS_TEXT : undefined;
  }
  if (parsed.protocol !== 'http:') return 'must be an https URL';
  if (!rules.allowInsecure) return 'must be an https URL';
  const host = parsed.hostname;
  const loopback = LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
  return loopback ? undefined : 'http is allowed to a loopback host only; use https';
}
