import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isoOfMillis, parseIsoDateTime } from '../src/domain/iso-date-time.ts';

/**
 * What the hand parser replaces: zod's accepted forms, read by Date. The fraction is cut to its
 * milliseconds first: V8 misreads a fraction of more than 9 digits that starts with zeros
 * (`.0009000000` as 9 ms), where the parser truncates as it does for every shorter fraction.
 */
const IsoDateTime = z.iso.datetime({ offset: true });
const toMillisecondFraction = (text: string) => text.replace(/(\.\d{3})\d+/, '$1');
const reference = (text: string) =>
  IsoDateTime.safeParse(text).success ? Date.parse(toMillisecondFraction(text)) : undefined;

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Mostly valid parts, with out-of-range values, wrong widths and wrong separators mixed in. */
const part = (max: number, width: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max }).map((n) => pad(n, width)) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 10 ** width - 1 }).map((n) => pad(n, width)) },
    { weight: 1, arbitrary: fc.string({ maxLength: width + 1 }) },
  );
const separator = (expected: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(expected) },
    { weight: 1, arbitrary: fc.string({ maxLength: 2 }) },
  );
const fraction = fc.oneof(
  fc.constant(''),
  fc.stringMatching(/^\.\d{1,12}$/),
  fc.constantFrom('.', '.x', '.1.2', ',5'),
);
const zone = fc.oneof(
  fc.constantFrom('Z', 'z', '', '+00:00', '-00:00', 'ZZ', '+0100', '+1:00', ' Z'),
  fc.tuple(fc.constantFrom('+', '-'), part(23, 2), separator(':'), part(59, 2)).map((p) => p.join('')),
);
const dateTime = fc
  .tuple(
    fc.oneof(part(9999, 4), fc.constantFrom('2000', '1900', '2024', '2100', '0000', '1600', '2023')),
    separator('-'),
    part(12, 2),
    separator('-'),
    fc.oneof(part(31, 2), fc.constantFrom('28', '29', '30', '31')),
    separator('T'),
    part(23, 2),
    separator(':'),
    part(59, 2),
    separator(':'),
    part(59, 2),
    fraction,
    zone,
  )
  .map((p) => p.join(''));

describe('ISO-8601 date-times', () => {
  it('accepts exactly what the zod check accepted and gives the millis Date gives', () => {
    fc.assert(
      fc.property(dateTime, (text) => {
        expect(parseIsoDateTime(text)).toBe(reference(text));
      }),
      { numRuns: 20_000 },
    );
    // 20,000 cases take seconds on a loaded machine, more with coverage on.
  }, 30_000);

  it('agrees on arbitrary text too', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        expect(parseIsoDateTime(text)).toBe(reference(text));
      }),
    );
  });

  it('reads leap days, offsets, long fractions and the ends of the calendar', () => {
    for (const text of [
      '2024-02-29T00:00:00Z',
      '2000-02-29T12:00:00Z',
      '0000-02-29T00:00:00Z',
      '2029-12-20T00:00:00+01:00',
      '2029-12-20T00:00:00.123456789-23:59',
      '0000-01-01T00:00:00+23:59',
      '0099-12-31T23:59:59.9Z',
      '9999-12-31T23:59:59.999-23:59',
    ]) {
      expect(parseIsoDateTime(text), text).toBe(Date.parse(text));
    }
    for (const text of [
      '1900-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01T24:00:00Z',
    ]) {
      expect(parseIsoDateTime(text), text).toBeUndefined();
    }
  });

  it('answers the UTC form Date gives', () => {
    fc.assert(
      fc.property(dateTime, (text) => {
        const millis = parseIsoDateTime(text);
        if (millis !== undefined)
          expect(isoOfMillis(text, millis)).toBe(new Date(toMillisecondFraction(text)).toISOString());
      }),
      { numRuns: 5_000 },
    );
  });
});
