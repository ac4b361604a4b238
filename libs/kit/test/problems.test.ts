import { VALIDATION_DETAIL } from '@engage/contracts';
import { describe, expect, it } from 'vitest';
import { Problem, problemDocument } from '../src/problems.ts';

const item = (code: string, message = `${code} broken`) => ({ code, message, meta: {} });
const detailOf = (status: number, codes: string[]) =>
  problemDocument(
    new Problem(
      status,
      codes.map((c) => item(c)),
    ),
    '/v1/x',
    't',
  ).detail;

describe('the detail of a problem document', () => {
  it('is the fixed sentence on a 400 whose first error is validation.*, whatever follows it', () => {
    expect(detailOf(400, ['validation.amount'])).toBe(VALIDATION_DETAIL);
    expect(detailOf(400, ['validation.amount', 'points_adjustment.reason_too_long'])).toBe(VALIDATION_DETAIL);
  });

  it("is the first error's message when the first error has a code of its own", () => {
    expect(detailOf(400, ['points_adjustment.amount_zero', 'validation.idempotency_key'])).toBe(
      'points_adjustment.amount_zero broken',
    );
    expect(detailOf(404, ['validation.request'])).toBe('validation.request broken');
  });
});
