/**
 * Exact decimals carried as text (`-12345678901234567890.12345678`): engage numbers have up to 20
 * digits before the point and 8 after, more than a JavaScript double holds, so they are compared
 * digit by digit and never converted to a number.
 */

import { MAX_NUMBER_FRACTION_DIGITS, MAX_NUMBER_INTEGER_DIGITS } from './http/events.ts';

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

const JSON_NUMBER = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

export type DecimalResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'not_a_number' | 'out_of_range' };

/**
 * An event number as it travels from the HTTP body to the topic: a JSON number's text (`1.5`,
 * `-2e-3`, `12345678901234567890.12345678`) becomes plain decimal text without an exponent, trailing
 * fraction zeros or leading integer zeros, within the digits an event number may have. A number
 * JSON.parse gave gets the same answer as its text; its text is already plain decimal text unless it
 * has an exponent, so only the digit counts are checked.
 */
export function toDecimalText(jsonNumber: string | number): DecimalResult {
  if (typeof jsonNumber === 'number') return numberToDecimalText(jsonNumber);
  const match = JSON_NUMBER.exec(jsonNumber);
  if (!match) return { ok: false, reason: 'not_a_number' };
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  const digits = whole + fraction;
  // The position of the decimal point within `digits`, after applying the exponent.
  const point = whole.length + exponent;
  if (!Number.isSafeInteger(point) || Math.abs(point) > 1_000) {
    return digits.replace(/0/g, '') === '' ? { ok: true, text: '0' } : { ok: false, reason: 'out_of_range' };
  }
  const padded = point < 0 ? '0'.repeat(-point) + digits : digits.padEnd(point, '0');
  const at = Math.max(point, 0);
  const integerPart = padded.slice(0, at).replace(/^0+/, '') || '0';
  const fractionPart = padded.slice(at).replace(/0+$/, '');
  const integerDigits = integerPart === '0' ? 0 : integerPart.length;
  if (integerDigits > MAX_NUMBER_INTEGER_DIGITS || fractionPart.length > MAX_NUMBER_FRACTION_DIGITS) {
    return { ok: false, reason: 'out_of_range' };
  }
  const isZero = integerPart === '0' && fractionPart === '';
  const text = `${isZero ? '' : sign}${integerPart}${fractionPart ? `.${fractionPart}` : ''}`;
  return { ok: true, text };
}

function numberToDecimalText(value: number): DecimalResult {
  const text = String(value);
  if (!text.includes('e')) {
    const point = text.indexOf('.');
    const integerDigits = (point < 0 ? text.length : point) - (value < 0 ? 1 : 0);
    const fractionDigits = point < 0 ? 0 : text.length - point - 1;
    if (integerDigits <= MAX_NUMBER_INTEGER_DIGITS && fractionDigits <= MAX_NUMBER_FRACTION_DIGITS) {
      return { ok: true, text };
    }
  }
  return toDecimalText(text);
}

const SIGNED_DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Decimal text as an integer in units of 10^-scale; undefined for more fraction digits than that. */
export function parseUnscaled(text: string, scale: number): bigint | undefined {
  const match = SIGNED_DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > scale) return undefined;
  const unscaled = BigInt(whole + fraction.padEnd(scale, '0'));
  return sign ? -unscaled : unscaled;
}

/** An integer in units of 10^-scale as decimal text, without trailing fraction zeros. */
export function formatUnscaled(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * What parseUnscaled answers, as a double, when the unscaled value has at most 15 digits, which a
 * double holds exactly (most event numbers: scores, levels, prices); undefined otherwise.
 */
export function smallUnscaled(text: string, scale: number): number | undefined {
  const match = SIGNED_DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  if (fraction.length > scale || whole.length + scale > 15) return undefined;
  const unscaled = Number(whole + fraction.padEnd(scale, '0'));
  return sign ? -unscaled : unscaled;
}

const ROUNDABLE_DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d*))?$/;

/**
 * Decimal text in units of 10^-decimals, rounded half away from zero from its digits as Postgres's
 * `round(numeric)` does (a double times 10^decimals would round 1.005 to 1.00), as a double;
 * undefined for text that is not decimal.
 */
export function roundedUnscaled(text: string, decimals: number): number | undefined {
  const parts = ROUNDABLE_DECIMAL_TEXT.exec(text);
  if (!parts) return undefined;
  const [, sign, whole = '', fraction = ''] = parts;
  const digits = fraction.padEnd(decimals + 1, '0');
  const magnitude = Number(whole + digits.slice(0, decimals)) + (digits[decimals]! >= '5' ? 1 : 0);
  return sign === '-' ? -magnitude : magnitude;
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
