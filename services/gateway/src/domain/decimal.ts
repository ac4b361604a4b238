import { MAX_NUMBER_FRACTION_DIGITS, MAX_NUMBER_INTEGER_DIGITS } from '@engage/contracts/http/events.ts';

/**
 * Event numbers travel as exact decimal text from the HTTP body to the topic. A JSON number's text
 * (`1.5`, `-2e-3`, `12345678901234567890.12345678`) becomes plain decimal text without an exponent,
 * trailing fraction zeros or leading integer zeros.
 */

const JSON_NUMBER = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

export type DecimalResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'not_a_number' | 'out_of_range' };

export function toDecimalText(jsonNumber: string): DecimalResult {
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

/**
 * The same answer as `toDecimalText(String(value))` for a number JSON.parse gave. Its text is
 * already plain decimal text unless it has an exponent, so only the digit counts are checked.
 */
export function decimalTextOfNumber(value: number): DecimalResult {
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
