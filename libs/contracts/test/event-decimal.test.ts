import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDecimalText } from '../src/decimal.ts';

describe('event numbers', () => {
  it('keep 20 integer digits and 8 decimal places exactly', () => {
    expect(toDecimalText('12345678901234567890.12345678')).toEqual({
      ok: true,
      text: '12345678901234567890.12345678',
    });
    expect(toDecimalText('-99999999999999999999.99999999')).toEqual({
      ok: true,
      text: '-99999999999999999999.99999999',
    });
  });

  it.each([
    ['0', '0'],
    ['-0', '0'],
    ['-0.0', '0'],
    ['1.50000000000', '1.5'],
    ['007', '7'],
    ['1e3', '1000'],
    ['1.5E+2', '150'],
    ['25e-8', '0.00000025'],
    ['0e999999999', '0'],
    ['123.456', '123.456'],
  ])('writes %s as %s', (input, text) => {
    expect(toDecimalText(input)).toEqual({ ok: true, text });
  });

  it.each([
    '123456789012345678901',
    '1.123456789',
    '123456789012345678901.123456789',
    '1e20',
    '1e-9',
    '1e999999999',
  ])('refuses %s as out of range', (input) => {
    expect(toDecimalText(input)).toEqual({ ok: false, reason: 'out_of_range' });
  });

  it('refuses text that is not a JSON number', () => {
    expect(toDecimalText('NaN').ok).toBe(false);
    expect(toDecimalText('1.').ok).toBe(false);
  });
});

describe('numbers JSON.parse gave', () => {
  it('read as their text would be', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.integer(),
          fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100),
          fc.constantFrom(-0, 0, 1e20, 1e21, 9.999e20, 0.000001, 1e-7, 123456.123456789),
        ),
        (value) => {
          expect(toDecimalText(value)).toEqual(toDecimalText(String(value)));
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
