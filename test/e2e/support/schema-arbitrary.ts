import fc from 'fast-check';

/** A JSON Schema (2020-12, as in docs/openapi.json), loosely typed. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

/**
 * Values a property of this name should mostly take: names of things that exist (a defined mission
 * key, a known player), so that generated valid input reaches the success paths, not only the 404s.
 */
export type Vocabulary = Record<string, readonly unknown[]>;

/** Picks a known value nine times in ten, a generated one otherwise. */
export function preferKnown(known: readonly unknown[] | undefined, generated: fc.Arbitrary<unknown>) {
  if (!known || known.length === 0) return generated;
  return fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 9 }, { arbitrary: generated, weight: 1 });
}

/**
 * Values valid against `schema`, small and varied; `resolve` follows `$ref`s; object properties
 * named in `vocabulary` mostly take its values.
 */
export function valid(
  schema: Schema,
  resolve: (ref: string) => Schema,
  vocabulary: Vocabulary = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const again = (s: Schema, d = depth) => valid(s, resolve, vocabulary, d);
  if (schema.$ref) return again(resolve(schema.$ref));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => again(s, depth + 1)));
  if (schema.allOf) return again(Object.assign({}, ...schema.allOf));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  if (type.length > 1) return fc.oneof(...type.map((t) => again({ ...schema, type: t })));
  switch (type[0]) {
    case 'string':
      return string(schema);
    case 'integer': {
      const min = Math.max(schema.minimum ?? -1e6, -1e6);
      const max = Math.min(schema.maximum ?? 1e6, 1e6);
      return fc.oneof(
        fc.integer({ min, max }),
        fc.integer({ min: Math.max(min, -10), max: Math.min(max, 10) }),
      );
    }
    case 'number':
      return fc.double({
        min: schema.minimum ?? schema.exclusiveMinimum ?? -1e9,
        max: schema.maximum ?? schema.exclusiveMaximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(depth > 4 ? fc.constant(null) : again(schema.items ?? {}, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    default:
      return object(schema, resolve, vocabulary, depth);
  }
}

function string(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  const fits = (s: string) =>
    s.length >= minLength && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
  if (schema.format === 'date-time') {
    return fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2030-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  // An identifier-like value within the bounds (a filter alone would almost never pass a minLength of 12).
  const identifierTail = `{${Math.max(minLength - 1, 0)},${Math.max(Math.min(maxLength, 16), minLength, 1) - 1}}`;
  return fc.oneof(
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
    fc.stringMatching(new RegExp(`^[a-z][a-z0-9_-]${identifierTail}$`)).filter(fits),
  );
}

function object(
  schema: Schema,
  resolve: (ref: string) => Schema,
  vocabulary: Vocabulary,
  depth: number,
): fc.Arbitrary<unknown> {
  const required = new Set(schema.required ?? []);
  const known = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, s]) => [
      key,
      depth > 4
        ? fc.constant(undefined)
        : preferKnown(vocabulary[key], valid(s, resolve, vocabulary, depth + 1)),
    ]),
  );
  const fixed = fc.record(known, { requiredKeys: [...required].filter((k) => k in known) });
  const extra = schema.additionalProperties;
  if (!extra || extra === true || depth > 4) return fixed;
  const keys = schema.propertyNames
    ? string(schema.propertyNames)
    : fc.string({ minLength: 1, maxLength: 10 });
  return fc
    .tuple(fixed, fc.dictionary(keys, valid(extra, resolve, vocabulary, depth + 1), { maxKeys: 3 }))
    .map(([a, b]) => ({ ...b, ...(a as object) }));
}

/** Values that break `schema` somewhere: any JSON at all, or a valid value with one field spoiled. */
export function invalid(schema: Schema, resolve: (ref: string) => Schema): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.tuple(valid(schema, resolve), fc.jsonValue({ maxDepth: 2 }), fc.nat()).map(([value, junk, pick]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return junk;
      const keys = Object.keys(value);
      if (keys.length === 0) return junk;
      const key = keys[pick % keys.length]!;
      const spoiled: Record<string, unknown> = { ...value };
      if (pick % 2 === 0) delete spoiled[key];
      else spoiled[key] = junk;
      return spoiled;
    }),
  );
}
