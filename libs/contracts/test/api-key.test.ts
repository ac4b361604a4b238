import {
  formatApiKey,
  generateApiKey,
  hashSecret,
  parseApiKey,
  secretMatches,
} from '@engage/contracts/api-key.ts';
import { describe, expect, it } from 'vitest';

describe('API keys', () => {
  it('carry a readable environment marker, a public id and a secret', () => {
    const sandbox = generateApiKey('Sandbox');
    const live = generateApiKey('Live');
    expect(sandbox.key).toMatch(/^eng_sandbox_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(live.key).toMatch(/^eng_live_[0-9a-f]{16}_/);
    expect(parseApiKey(sandbox.key)).toEqual({
      kind: 'Sandbox',
      publicId: sandbox.publicId,
      secret: sandbox.secret,
    });
    expect(formatApiKey(parseApiKey(live.key)!)).toBe(live.key);
  });

  it('are read with or without a Bearer prefix', () => {
    const key = generateApiKey('Live');
    expect(parseApiKey(`Bearer ${key.key}`)?.publicId).toBe(key.publicId);
    expect(parseApiKey(`bearer ${key.key}`)?.publicId).toBe(key.publicId);
    expect(parseApiKey(key.key)?.kind).toBe('Live');
  });

  it.each([
    undefined,
    '',
    'Bearer',
    'eng_sandbox_123',
    'eng_prod_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'eng_sandbox_0123456789ABCDEF_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'eng_sandbox_0123456789abcdef_short',
  ])('refuse the malformed %s', (header) => {
    expect(parseApiKey(header)).toBeUndefined();
  });

  it('store only a SHA-256 of the secret and compare it exactly', () => {
    const key = generateApiKey('Sandbox');
    expect(key.secretSha256).toEqual(hashSecret(key.secret));
    expect(key.secretSha256).toHaveLength(32);
    expect(secretMatches(key.secret, key.secretSha256)).toBe(true);
    expect(secretMatches(`${key.secret.slice(0, -1)}x`, key.secretSha256)).toBe(false);
    expect(secretMatches(key.secret, Buffer.alloc(16))).toBe(false);
  });

  it('are different every time', () => {
    const keys = new Set(Array.from({ length: 100 }, () => generateApiKey('Sandbox').key));
    expect(keys.size).toBe(100);
  });
});
