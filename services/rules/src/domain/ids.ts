import { createHash } from 'node:crypto';

/**
 * A UUID derived from its parts (UUIDv5-style: SHA-1 based, version 5, RFC 4122 variant). The same
 * parts always give the same id, so a re-emitted reward or record keeps the id consumers dedupe on.
 */
export function derivedUuid(...parts: (string | number | null)[]): string {
  const hash = createHash('sha1')
    .update(parts.map((p) => String(p ?? '')).join('\u0000'))
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
