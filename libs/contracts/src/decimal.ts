/**
 * Exact decimals carried as text (`-12345678901234567890.12345678`): engage numbers have up to 20
 * digits before the point and 8 after, more than a JavaScript double holds, so they are compared
 * digit by digit and never converted to a number.
 */

/** Plain decimal text: optional minus, digits, optional fraction; no exponent. */
export const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

/** A number attribute as it travels between services: its exact decimal text. */
export interface DecimalValue {
  decimal: string;
}

export const isDecimalValue = (value: unknown): value is DecimalValue =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { decimal?: unknown }).decimal === 'string' &&
  DECIMAL_TEXT.test((value as DecimalValue).decimal);

/** The exact decimal text of a JavaScript number (finite), without an exponent. */
export function decimalTextOfNumber(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa = '', exponentText = '0'] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [whole = '', fraction = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(exponentText);
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits.padEnd(point, '0')
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${negative ? '-' : ''}${body}`;
}

/** Sign, integer digits without leading zeros, fraction digits without trailing zeros. */
function parts(text: string): { negative: boolean; whole: string; fraction: string } {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const w = whole.replace(/^0+/, '');
  const f = fraction.replace(/0+$/, '');
  return { negative: negative && (w !== '' || f !== ''), whole: w, fraction: f };
}

function compareMagnitude(a: ReturnType<typeof parts>, b: ReturnType<typeof parts>): number {
  if (a.whole.length !== b.whole.length) return a.whole.length < b.whole.length ? -1 : 1;
  if (a.whole !== b.whole) return a.whole < b.whole ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** -1, 0 or 1 as decimal text `a` is below, equal to or above `b` (both plain decimal text). */
export function compareDecimalText(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  if (pa.negative !== pb.negative) return pa.negative ? -1 : 1;
  const magnitude = compareMagnitude(pa, pb);
  return pa.negative && magnitude !== 0 ? -magnitude : magnitude;
}
