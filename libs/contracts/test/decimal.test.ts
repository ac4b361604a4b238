import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimalText, decimalTextOfNumber } from '../src/decimal.ts';

describe('compareDecimalText', () => {
  it.each([
    ['1', '1.0', 0],
    ['-0', '0', 0],
    ['0.1', '0.10000000', 0],
    ['-1.5', '-1.25', -1],
    ['99999999999999999999.99999999', '100000000000000000000', -1],
    ['12345678901234567000.00000001', '12345678901234567000', 1],
    ['-3', '2', -1],
    ['-2.5', '-2.50', 0],
    ['007', '7', 0],
  ])('%s against %s is %i', (a, b, expected) => {
    expect(compareDecimalText(a, b)).toBe(expected);
    expect(compareDecimalText(b, a)).toBe(-expected || 0);
  });

  it('orders like numbers wherever doubles are exact', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: -1e9, max: 1e9 }), (a, b) => {
        const text = (n: number) => decimalTextOfNumber(n / 1000);
        expect(compareDecimalText(text(a), text(b))).toBe(Math.sign(a - b) || 0);
      }),
    );
  });
});

describe('decimalTextOfNumber', () => {
  it.each([
    [1e21, '1000000000000000000000'],
    [1e-7, '0.0000001'],
    [-1.5e-8, '-0.000000015'],
    [4.99, '4.99'],
    [1.2345e22, '12345000000000000000000'],
  ])('%d is %s', (n, text) => {
    expect(decimalTextOfNumber(n)).toBe(text);
  });
});
