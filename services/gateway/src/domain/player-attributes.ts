import {
  type AnyProblemCode,
  type DecimalValue,
  fitsCharacters,
  isProblemCode,
  PROBLEMS,
  type ProblemItem,
  toDecimalText,
} from '@engage/contracts';
import { MAX_NUMBER_FRACTION_DIGITS, MAX_NUMBER_INTEGER_DIGITS } from '@engage/contracts/http/events.ts';
import {
  MAX_ATTRIBUTE_TEXT_LENGTH,
  MAX_ATTRIBUTES_PER_REQUEST,
  type PlayerAttributeDefinition,
} from '@engage/contracts/http/players.ts';
import { isLosslessNumber } from 'lossless-json';
import { z } from 'zod';

/**
 * Checks a set of player attributes against the environment's definitions. All or nothing: every
 * broken rule is listed, and the status of the answer is the status of the first. The body is
 * parsed losslessly, so a number arrives as its JSON text and leaves as exact decimal text
 * (`{ decimal }`), like an event property: 8 decimal places, up to 20 digits before the point.
 */

export type AttributeValue = string | boolean | DecimalValue;

export type AttributeSetCheck =
  | { ok: true; set: Record<string, AttributeValue>; remove: string[] }
  | { ok: false; status: number; errors: ProblemItem[] };

const IsoDateTime = z.iso.datetime({ offset: true });

export function checkAttributeSet(
  attributes: unknown,
  definitions: ReadonlyMap<string, PlayerAttributeDefinition>,
): AttributeSetCheck {
  if (attributes === undefined || attributes === null) {
    return refused([item('player_attribute.attributes_missing', 'The request sets no attribute.')]);
  }
  if (typeof attributes !== 'object' || Array.isArray(attributes) || isLosslessNumber(attributes)) {
    return refused([
      item('validation.attributes', 'attributes must be an object of key and value.', {
        field: 'attributes',
      }),
    ]);
  }
  const entries = Object.entries(attributes);
  if (entries.length === 0) {
    return refused([item('player_attribute.attributes_missing', 'The request sets no attribute.')]);
  }
  if (entries.length > MAX_ATTRIBUTES_PER_REQUEST) {
    return refused([
      item('validation.attributes', `A request sets at most ${MAX_ATTRIBUTES_PER_REQUEST} attributes.`, {
        field: 'attributes',
      }),
    ]);
  }
  const errors: ProblemItem[] = [];
  const set = new Map<string, AttributeValue>();
  const remove: string[] = [];
  for (const [key, value] of entries) {
    const definition = definitions.get(key);
    if (!definition) {
      errors.push(item('player_attribute.not_found', `No attribute ${key} is defined.`, { attribute: key }));
    } else if (!definition.active) {
      errors.push(item('player_attribute.inactive', `Attribute ${key} is switched off.`, { attribute: key }));
    } else if (value === null) {
      remove.push(key);
    } else {
      const converted = convert(key, value, definition.type);
      if ('error' in converted) errors.push(converted.error);
      else set.set(key, converted.value);
    }
  }
  if (errors.length > 0) return refused(errors);
  return { ok: true, set: Object.fromEntries(set), remove };
}

function convert(
  key: string,
  value: unknown,
  type: PlayerAttributeDefinition['type'],
): { value: AttributeValue } | { error: ProblemItem } {
  const mismatch = (expected: string) => ({
    error: item('player_attribute.type_mismatch', `Attribute ${key} must be ${expected}.`, {
      attribute: key,
      type,
    }),
  });
  switch (type) {
    case 'string':
      if (typeof value !== 'string' || value.includes('\u0000'))
        return mismatch('text without NUL characters');
      if (!fitsCharacters(value, MAX_ATTRIBUTE_TEXT_LENGTH)) {
        return {
          error: item(
            'player_attribute.value_too_long',
            `Attribute ${key} is longer than ${MAX_ATTRIBUTE_TEXT_LENGTH} characters.`,
            { attribute: key, limit: MAX_ATTRIBUTE_TEXT_LENGTH },
          ),
        };
      }
      return { value };
    case 'number': {
      if (typeof value !== 'number' && !isLosslessNumber(value)) return mismatch('a number');
      const decimal = toDecimalText(String(value));
      if (decimal.ok) return { value: { decimal: decimal.text } };
      return {
        error: item(
          'player_attribute.type_mismatch',
          `Attribute ${key} has more than ${MAX_NUMBER_FRACTION_DIGITS} decimal places or more than ${MAX_NUMBER_INTEGER_DIGITS} digits before the point.`,
          {
            attribute: key,
            type,
            reason: 'out_of_range',
            maxIntegerDigits: MAX_NUMBER_INTEGER_DIGITS,
            maxFractionDigits: MAX_NUMBER_FRACTION_DIGITS,
          },
        ),
      };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { value } : mismatch('true or false');
    case 'dateTime':
      return typeof value === 'string' && IsoDateTime.safeParse(value).success
        ? { value: new Date(value).toISOString() }
        : mismatch('an ISO-8601 date and time with Z or an offset');
  }
}

const item = (code: AnyProblemCode, message: string, meta: Record<string, unknown> = {}): ProblemItem => ({
  code,
  message,
  meta,
});

const refused = (errors: ProblemItem[]): AttributeSetCheck => ({
  ok: false,
  status: isProblemCode(errors[0]!.code) ? PROBLEMS[errors[0]!.code].status : 400,
  errors,
});
