import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the console's build writes where each response's nonce goes (`html.cspNonce` in
 * console/vite.config.ts): on its script and style tags and in `<meta property="csp-nonce">`, from
 * which the console hands it to CodeMirror for the styles it injects.
 */
const NONCE_PLACEHOLDER = 'ENGAGE_CSP_NONCE';

/**
 * The console may load only its own files, and styles only from them or from a `<style>` carrying
 * the page's nonce; it is never framed. Without a nonce (its assets), no inline style at all.
 */
export function consoleContentSecurityPolicy(nonce?: string): string {
  const styles = nonce ? `'self' 'nonce-${nonce}'` : "'self'";
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    `style-src ${styles}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

export interface ConsolePage {
  html: string;
  contentSecurityPolicy: string;
}

/**
 * The console's page (its built index.html), read once: each call answers it with a fresh nonce,
 * and the policy admitting the styles that carry it.
 */
export function consolePageOf(directory: string): () => ConsolePage {
  const parts = readFileSync(join(directory, 'index.html'), 'utf8').split(NONCE_PLACEHOLDER);
  return () => {
    const nonce = randomBytes(18).toString('base64');
    return { html: parts.join(nonce), contentSecurityPolicy: consoleContentSecurityPolicy(nonce) };
  };
}
