import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AcceptedEvent, topics } from '../src/topics/catalog.ts';
import { acceptedEventWith } from './accepted-event.ts';

const type = topics.eventsAccepted.type;

const event = (number: string) =>
  acceptedEventWith({
    properties: { n: { type: 'Number', string: null, number, boolean: null, dateTime: null } },
  });

/** Avro decimal bytes as the specification defines them: minimal two's complement, big-endian. */
function referenceBytes(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  const unscaled = BigInt(whole + fraction.padEnd(8, '0')) * (negative ? -1n : 1n);
  let bytes = 1;
  while (unscaled >= 1n << BigInt(8 * bytes - 1) || unscaled < -(1n << BigInt(8 * bytes - 1))) bytes++;
  return BigInt.asUintN(8 * bytes, unscaled)
    .toString(16)
    .padStart(2 * bytes, '0');
}

const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^(0|[1-9]\d{0,19})$/),
    fc.option(fc.stringMatching(/^\d{0,7}[1-9]$/), { nil: undefined }),
  )
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);

describe('decimal numbers on the events topic', () => {
  it('encode to the Avro decimal bytes and read back the same text, small or large', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const buffer = type.toBuffer(event(text));
        const expected = referenceBytes(text);
        expect(buffer.toString('hex')).toContain(expected);
        const back = type.fromBuffer(buffer) as AcceptedEvent;
        const normalized = text === '-0' ? '0' : text;
        expect(back.properties.n?.number).toBe(normalized);
      }),
      { numRuns: 3_000 },
    );
  });

  it.each(['0', '-1', '127', '128', '-128', '-129', '4.99', '9999999.99999999', '-9999999.99999999'])(
    'writes %s exactly',
    (text) => {
      const written = (type.fromBuffer(type.toBuffer(event(text))) as AcceptedEvent).properties.n?.number;
      expect(written).toBe(text);
    },
  );
});
