import { Problem } from '@engage/kit';
import { describe, expect, it } from 'vitest';
import { MAX_REASON_LENGTH, parseAdjustmentRequest } from '../src/domain/adjustment-request.ts';

function refusal(body: unknown): Problem {
  try {
    parseAdjustmentRequest(body);
  } catch (err) {
    if (err instanceof Problem) return err;
    throw err;
  }
  throw new Error('the body was accepted');
}

const codes = (body: unknown) => refusal(body).errors.map((e) => e.code);

describe('parseAdjustmentRequest', () => {
  it('accepts a credit, a debit, a reason and a key', () => {
    expect(parseAdjustmentRequest({ playerId: 'p1', amount: 5 })).toEqual({ playerId: 'p1', amount: 5 });
    expect(
      parseAdjustmentRequest({ playerId: 'p1', amount: -5, reason: 'refund', idempotencyKey: 'k' }),
    ).toEqual({ playerId: 'p1', amount: -5, reason: 'refund', idempotencyKey: 'k' });
  });

  it('refuses a zero amount with points_adjustment.amount_zero', () => {
    const p = refusal({ playerId: 'p1', amount: 0 });
    expect(p.status).toBe(400);
    expect(p.code).toBe('points_adjustment.amount_zero');
    expect(p.errors[0]?.meta).toMatchObject({ path: 'amount' });
  });

  it('counts the reason in characters: 500 pass, 501 are points_adjustment.reason_too_long', () => {
    expect(
      parseAdjustmentRequest({ playerId: 'p', amount: 1, reason: 'x'.repeat(MAX_REASON_LENGTH) }).reason,
    ).toHaveLength(500);
    // 500 characters outside the Basic Multilingual Plane are 1,000 UTF-16 units and still allowed.
    expect(() =>
      parseAdjustmentRequest({ playerId: 'p', amount: 1, reason: '😀'.repeat(500) }),
    ).not.toThrow();
    const p = refusal({ playerId: 'p', amount: 1, reason: 'x'.repeat(501) });
    expect(p.code).toBe('points_adjustment.reason_too_long');
    expect(p.errors[0]?.meta).toMatchObject({ path: 'reason', maxLength: 500 });
  });

  it('lists a zero amount and a long reason together, the first in code', () => {
    const p = refusal({ playerId: 'p', amount: 0, reason: 'x'.repeat(501) });
    expect(p.code).toBe('points_adjustment.amount_zero');
    expect(p.errors.map((e) => e.code)).toEqual([
      'points_adjustment.amount_zero',
      'points_adjustment.reason_too_long',
    ]);
  });

  it('lists the contract rules together with other refused fields, in field order', () => {
    expect(codes({ amount: 0, reason: 'x'.repeat(501), idempotencyKey: '' })).toEqual([
      'player.external_id_missing',
      'points_adjustment.amount_zero',
      'points_adjustment.reason_too_long',
      'validation.idempotency_key',
    ]);
  });

  it('refuses amounts that are not whole points, or are out of range, as validation.amount', () => {
    expect(codes({ playerId: 'p', amount: 1.5 })).toEqual(['validation.amount']);
    expect(codes({ playerId: 'p', amount: '10' })).toEqual(['validation.amount']);
    expect(codes({ playerId: 'p' })).toEqual(['validation.amount']);
    expect(codes({ playerId: 'p', amount: 1_000_000_000_001 })).toEqual(['validation.amount']);
  });

  it('names the player id codes of the contract', () => {
    expect(codes({ amount: 1 })).toEqual(['player.external_id_missing']);
    expect(codes({ playerId: '', amount: 1 })).toEqual(['player.external_id_missing']);
    expect(codes({ playerId: 'x'.repeat(201), amount: 1 })).toEqual(['player.external_id_too_long']);
    expect(codes({ playerId: 7, amount: 1 })).toEqual(['validation.player_id']);
  });

  it('refuses keys longer than 200 characters and non-text reasons', () => {
    expect(codes({ playerId: 'p', amount: 1, idempotencyKey: 'k'.repeat(201) })).toEqual([
      'validation.idempotency_key',
    ]);
    expect(codes({ playerId: 'p', amount: 1, reason: 5 })).toEqual(['validation.reason']);
  });

  it('refuses a body that is not a JSON object as validation.request', () => {
    expect(codes(undefined)).toEqual(['validation.request']);
    expect(codes([1])).toEqual(['validation.request']);
    expect(codes('text')).toEqual(['validation.request']);
  });
});
