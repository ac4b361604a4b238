import { parse as parseLosslessly } from 'lossless-json';

/**
 * JSON bodies whose numbers must not lose a digit. Native JSON.parse is much faster than
 * lossless-json, and exact for every number token of at most 15 digits without an exponent:
 * a decimal of 15 significant digits survives the trip through a double and back
 * (`String(Number(text))` names the same value) and stays far from overflow. So a body is parsed
 * natively unless its text holds a run of 16 digits (a `.` among them allowed), something that
 * looks like an exponent ending a number (`1e5` before `,` `}` `]`, a space or the end), or 32 `[`
 * in a row (no event batch has them; hostile nesting keeps meeting the recursive parser, which
 * refuses it as malformed). The checks read strings too (telling tokens apart needs a tokenizer);
 * a false alarm only costs speed, and UUIDs (`123e4567-…`) raise none. The other bodies go through
 * lossless-json, whose numbers arrive as LosslessNumber with their exact text. Either way a repeated
 * key keeps its last value, as in JSON.parse, and `__proto__` is an ordinary own key.
 */

const LONG_DIGIT_RUN = /\d(?:\.?\d){15}/.source;
const EXPONENT = /\d[eE][+-]?\d+(?:[\s,}\]]|$)/.source;
const DEEP_ARRAYS = /\[(?:\s*\[){31}/.source;
/** The three as one pattern: one pass over the body instead of three. */
const NOT_EXACT_AS_DOUBLES = new RegExp(`${LONG_DIGIT_RUN}|${EXPONENT}|${DEEP_ARRAYS}`);

export function parseJsonExactly(text: string): unknown {
  if (!NOT_EXACT_AS_DOUBLES.test(text)) return JSON.parse(text);
  return parseLosslessly(text, undefined, { onDuplicateKey: ({ newValue }) => newValue });
}
