import { INTERNAL_HEADERS } from '@engage/contracts';
import { describe, expect, it } from 'vitest';
import { InternalSigner, InternalVerifier, SIGNATURE_WINDOW_MS } from '../src/internal-signature.ts';

const OLD = 'the-secret-before-the-rotation-0123456789';
const NEW = 'the-secret-after-the-rotation-0123456789a';
const NOW = 1_800_000_000_000;
const call = {
  method: 'POST',
  url: '/v1/points/adjustments?x=1',
  headers: { [INTERNAL_HEADERS.environmentId]: 'env-1', [INTERNAL_HEADERS.player]: 'p' },
  body: '{"amount":1}',
};
const signed = (secret: string, at = NOW) => ({
  ...call,
  headers: new InternalSigner(secret).sign(call, at),
});

describe('the gateway signature', () => {
  it('verifies under the current secret and, during a rotation, the previous one', () => {
    const rotating = new InternalVerifier([NEW, OLD]);
    expect(rotating.verify(signed(NEW), NOW)).toBe('valid');
    expect(rotating.verify(signed(OLD), NOW)).toBe('valid');
    expect(new InternalVerifier([NEW]).verify(signed(OLD), NOW)).toBe('mismatch');
  });

  it('holds for its window either way of the verifier’s clock, and no longer', () => {
    const verifier = new InternalVerifier([NEW]);
    expect(verifier.verify(signed(NEW, NOW - SIGNATURE_WINDOW_MS), NOW)).toBe('valid');
    expect(verifier.verify(signed(NEW, NOW + SIGNATURE_WINDOW_MS), NOW)).toBe('valid');
    expect(verifier.verify(signed(NEW, NOW - SIGNATURE_WINDOW_MS - 1), NOW)).toBe('outside_window');
    expect(verifier.verify(signed(NEW, NOW + SIGNATURE_WINDOW_MS + 1), NOW)).toBe('outside_window');
  });

  it('covers the method, the query, every context header and the body digest', () => {
    const verifier = new InternalVerifier([NEW]);
    const good = signed(NEW);
    const changed = [
      { ...good, method: 'PUT' },
      { ...good, url: '/v1/points/adjustments?x=2' },
      { ...good, headers: { ...good.headers, [INTERNAL_HEADERS.environmentId]: 'env-2' } },
      { ...good, headers: { ...good.headers, [INTERNAL_HEADERS.player]: 'q' } },
      { ...good, headers: { ...good.headers, [INTERNAL_HEADERS.organizationId]: 'org' } },
      { ...good, headers: { ...good.headers, 'content-digest': 'sha-256=:AAAA:' } },
    ];
    for (const forged of changed) expect(verifier.verify(forged, NOW)).toBe('mismatch');
    const { [INTERNAL_HEADERS.signature]: _, ...unsigned } = good.headers;
    expect(verifier.verify({ ...good, headers: unsigned }, NOW)).toBe('unsigned');
    expect(
      verifier.verify({ ...good, headers: { ...good.headers, [INTERNAL_HEADERS.signature]: 'short' } }, NOW),
    ).toBe('mismatch');
  });
});
