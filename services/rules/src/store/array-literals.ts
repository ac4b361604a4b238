/**
 * Postgres array literals (`{"a","b",NULL}`) for the consumer's `unnest` statements, built directly:
 * `pg` escapes every element of an array parameter with two regular-expression replacements, and a
 * consumer transaction sends arrays of hundreds of players in a dozen columns.
 */

/**
 * Values that never hold `"` or `\` (uuids, numbers, hex digests, ISO times, JSON arrays of
 * numbers); null is SQL NULL.
 */
export function plainArray(values: readonly (string | number | null)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) text += ',';
    text += value === null ? 'NULL' : `"${value}"`;
  }
  return `${text}}`;
}

const NEEDS_ESCAPE = /["\\]/;

/** Any text (player ids): `"` and `\` escaped. */
export function textArray(values: readonly string[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (i > 0) text += ',';
    text += NEEDS_ESCAPE.test(value) ? `"${value.replace(/[\\"]/g, '\\$&')}"` : `"${value}"`;
  }
  return `${text}}`;
}
