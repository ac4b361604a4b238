/**
 * A JSON value with its object keys in the order Postgres's jsonb keeps them (shorter keys first,
 * then by their UTF-8 bytes), so an answer replayed from memory serializes exactly as one replayed
 * from a stored jsonb column.
 */
export function jsonbOrdered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrdered);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length - y.length || Buffer.compare(x, y);
  });
  return Object.fromEntries(entries.map(([k, v]) => [k, jsonbOrdered(v)]));
}
