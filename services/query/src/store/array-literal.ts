/**
 * Numbers (or decimal text) as a Postgres array literal, for an array parameter: pg would quote and
 * escape each element, which numbers never need.
 */
export const arrayLiteral = (values: readonly (number | string | null)[]): string =>
  `{${values.map((v) => (v === null ? 'NULL' : v)).join(',')}}`;
