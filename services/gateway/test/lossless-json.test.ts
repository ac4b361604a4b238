import { toDecimalText } from '@engage/contracts';
import fc from 'fast-check';
import { parse as parseLosslessly } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJsonExactly } from '../src/domain/lossless-json.ts';

const decimalOf = (value: unknown) => toDecimalText(String(value));

/** A JSON number token: sign, up to 22 integer digits, up to 10 fraction digits, maybe an exponent. */
const numberToken = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^(0|[1-9]\d{0,21})$/),
    fc.option(fc.stringMatching(/^\d{1,10}$/), { nil: undefined }),
    fc.option(fc.integer({ min: -12, max: 12 }), { nil: undefined }),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}${exponent === undefined ? '' : `e${exponent}`}`,
  );

it('keeps an event number of 20 integer digits and 8 decimal places exactly', () => {
  const body = parseLosslessly('{"n": 12345678901234567890.12345678}') as { n: unknown };
  expect(decimalOf(body.n)).toEqual({ ok: true, text: '12345678901234567890.12345678' });
});

describe('parseJsonExactly', () => {
  it('reads every number to the same decimal as the lossless parser, whichever path it takes', () => {
    fc.assert(
      fc.property(fc.array(numberToken, { minLength: 1, maxLength: 8 }), (tokens) => {
        const text = `{"events":[${tokens.map((t, i) => `{"playerId":"p-${i}","properties":{"n":${t}}}`).join(',')}]}`;
        const fast = parseJsonExactly(text) as { events: { properties: { n: unknown } }[] };
        const slow = parseLosslessly(text) as typeof fast;
        expect(fast.events.map((e) => decimalOf(e.properties.n))).toEqual(
          slow.events.map((e) => decimalOf(e.properties.n)),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ['{"n":12345678901234567890.12345678}', '12345678901234567890.12345678'],
    ['{"n":1234567890123456}', '1234567890123456'],
    ['{"n":12345678.12345678}', '12345678.12345678'],
    ['{"n":1e400}', undefined],
    ['{"n":25e-8}', '0.00000025'],
    ['{"n":4.99,"id":"123e4567-e89b-12d3-a456-426614174000"}', '4.99'],
    ['{"n":-0}', '0'],
  ])('keeps %s exact', (text, expected) => {
    const n = (parseJsonExactly(text) as { n: unknown }).n;
    const decimal = decimalOf(n);
    expect(decimal.ok ? decimal.text : undefined).toBe(expected);
  });

  it('keeps the last of repeated keys and __proto__ as an own key on both paths', () => {
    for (const n of ['1', '12345678901234567890']) {
      const parsed = parseJsonExactly(`{"a":1,"a":${n},"__proto__":{"x":1}}`) as Record<string, unknown>;
      expect(String(parsed.a)).toBe(n);
      expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
      expect((parsed as { x?: unknown }).x).toBeUndefined();
    }
  });

  it('refuses malformed text and hostile nesting', () => {
    for (const text of [
      '{"n":NaN}',
      '{"n":Infinity}',
      '{"a":',
      `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
    ]) {
      expect(() => parseJsonExactly(text), text.slice(0, 20)).toThrow();
    }
  });
});
