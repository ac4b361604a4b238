import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareDecimalText,
  decimalTextOfNumber,
  formatUnscaled,
  parseUnscaled,
  roundedUnscaled,
  smallUnscaled,
} from '../src/decimal.ts';

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

describe('unscaled integers', () => {
  it.each([
    ['0', 0n],
    ['1.5', 150_000_000n],
    ['-0.00000001', -1n],
    ['-12345678901234567890.12345678', -1234567890123456789012345678n],
  ])('%s is %d units of 10^-8 and back', (text, unscaled) => {
    expect(parseUnscaled(text, 8)).toBe(unscaled);
    expect(formatUnscaled(unscaled, 8)).toBe(text);
  });

  it('refuses more fraction digits than the scale, and text that is not decimal', () => {
    expect(parseUnscaled('0.000000001', 8)).toBeUndefined();
    expect(parseUnscaled('1e3', 8)).toBeUndefined();
  });

  it('answers the same as a double while the unscaled value has at most 15 digits', () => {
    expect(smallUnscaled('-1234567.12345678', 8)).toBe(-123456712345678);
    expect(smallUnscaled('12345678.1', 8)).toBeUndefined();
  });
});

describe('roundedUnscaled', () => {
  it.each([
    ['1.005', 2, 101],
    ['1.004', 2, 100],
    ['-7.5', 0, -8],
    ['-7.49', 0, -7],
    ['42', 3, 42_000],
  ])('rounds %s at %d decimals half away from zero to %d', (text, decimals, units) => {
    expect(roundedUnscaled(text, decimals)).toBe(units);
  });

  it('answers nothing for text that is not decimal', () => {
    expect(roundedUnscaled('1e3', 0)).toBeUndefined();
  });
});
