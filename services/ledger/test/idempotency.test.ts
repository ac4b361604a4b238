import { describe, expect, it } from 'vitest';
import {
  adjustmentClaim,
  conflictCode,
  judgeRetry,
  purchaseClaim,
  requestHash,
} from '../src/domain/idempotency.ts';

describe('request hashing', () => {
  it('is stable for the same operation and target', () => {
    expect(requestHash('adjustment', '10')).toBe(requestHash('adjustment', '10'));
    expect(requestHash('adjustment', '10')).toMatch(/^[0-9a-f]{64}$/);
    expect(adjustmentClaim(10)).toEqual(adjustmentClaim(10));
  });

  it('differs by amount, by sign and by operation', () => {
    const hashes = new Set([
      adjustmentClaim(10).requestHash,
      adjustmentClaim(-10).requestHash,
      adjustmentClaim(11).requestHash,
      purchaseClaim('10').requestHash,
      purchaseClaim('sword').requestHash,
    ]);
    expect(hashes.size).toBe(5);
  });

  it('cannot be forged by joining operation and target differently', () => {
    expect(requestHash('adjustment', '1')).not.toBe(requestHash('adjustment1' as 'adjustment', ''));
  });
});

describe('judging a retry', () => {
  it('replays the same amount and refuses a different amount or operation', () => {
    expect(judgeRetry(adjustmentClaim(5), adjustmentClaim(5))).toBe('replay');
    expect(judgeRetry(adjustmentClaim(5), adjustmentClaim(6))).toBe('conflict');
    expect(judgeRetry(purchaseClaim('5'), adjustmentClaim(5))).toBe('conflict');
    expect(judgeRetry(purchaseClaim('sword'), purchaseClaim('shield'))).toBe('conflict');
  });

  it('answers with the conflict code of the operation attempted', () => {
    expect(conflictCode('adjustment')).toBe('points_adjustment.idempotency_key_conflict');
    expect(conflictCode('purchase')).toBe('marketplace_purchase.idempotency_key_conflict');
  });
});
