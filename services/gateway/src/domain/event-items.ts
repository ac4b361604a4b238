import type { AnyProblemCode, PropertyValue } from '@engage/contracts';
import {
  fieldCodeName,
  findUnrepresentableText,
  fitsCharacters,
  hasControlCharacter,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_PLAYER_ID_LENGTH,
  toDecimalText,
  UNREPRESENTABLE_TEXT_REASON,
  type UnrepresentableText,
  unrepresentableTextMessage,
} from '@engage/contracts';
import type { EventRule, EventRules, PropertyRule } from '@engage/contracts/event-rules.ts';
import {
  type EventItemError,
  EventKeySchema,
  MAX_OCCURRED_AT_AGE_MS,
  MAX_OCCURRED_AT_LEAD_MS,
  MAX_PROPERTIES_PER_EVENT,
  MAX_STRING_PROPERTY_LENGTH,
  PropertyNameSchema,
  type PropertyType,
} from '@engage/contracts/http/events.ts';

export type { EventRule, EventRules, PropertyRule };

import { isLosslessNumber } from 'lossless-json';
import { isoOfMillis, parseIsoDateTime } from './iso-date-time.ts';
import { isIanaTimeZone } from './time-zone.ts';

/**
 * Checks each item of an event batch on its own against the environment's event definitions, and
 * with discovery on defines unknown events and properties from their first accepted occurrence.
 * Pure: the caller loads the definitions and persists what was discovered.
 */

export interface ValidEvent {
  eventKey: string;
  playerId: string;
  occurredAt: string;
  /** The zone the item carried, if any. */
  timeZone: string | null;
  properties: Record<string, PropertyValue>;
  idempotencyKey: string | null;
}

export type ItemOutcome =
  | { index: number; ok: true; event: ValidEvent }
  | { index: number; ok: false; errors: EventItemError[] };

export interface BatchCheck {
  outcomes: ItemOutcome[];
  /** Events created or extended by discovery, in their state after the batch. */
  discovered: Map<string, EventRule>;
}

const ITEM_FIELDS = new Set([
  'eventKey',
  'playerId',
  'occurredAt',
  'properties',
  'timeZone',
  'idempotencyKey',
]);
/** A field name that can become `validation.<field>`; anything else is `validation.request`. */
const PLAIN_FIELD_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

export function checkEventItems(items: readonly unknown[], rules: EventRules, receivedAt: Date): BatchCheck {
  const events = new Map(rules.events);
  const discovered = new Map<string, EventRule>();
  const received: Received = { millis: receivedAt.getTime(), iso: receivedAt.toISOString() };
  const outcomes = items.map((item, index): ItemOutcome => {
    const result = checkItem(item, { discovery: rules.discovery, events }, received);
    if (result.errors.length > 0) return { index, ok: false, errors: result.errors };
    if (result.definedRule) {
      events.set(result.definedRule.key, result.definedRule);
      discovered.set(result.definedRule.key, result.definedRule);
    }
    return { index, ok: true, event: result.event! };
  });
  return { outcomes, discovered };
}

/** The batch's receipt time, in the two forms the checks use. */
interface Received {
  millis: number;
  iso: string;
}

interface ItemCheck {
  errors: EventItemError[];
  event?: ValidEvent;
  /** The event's rule extended by discovery, kept only when the item is accepted. */
  definedRule?: EventRule;
}

function checkItem(item: unknown, rules: EventRules, received: Received): ItemCheck {
  const fields = isPlainObject(item) ? Object.keys(item) : undefined;
  if (item === null || fields?.length === 0) {
    return { errors: [error('event.item_missing', 'The item is empty.')] };
  }
  if (!isPlainObject(item) || !fields) {
    return {
      errors: [error('validation.events', 'Each item of events must be an object.', { field: 'events' })],
    };
  }
  // Text that cannot be stored would stop every reader of the accepted events: such an item is refused whole.
  const unrepresentable = findUnrepresentableText(item);
  if (unrepresentable.length > 0) return { errors: unrepresentable.map(unrepresentableText) };
  const errors: EventItemError[] = [];
  for (const field of fields) {
    if (!ITEM_FIELDS.has(field)) errors.push(unknownField(field));
  }
  const playerId = checkPlayerId(item.playerId, errors);
  const eventKey = checkEventKey(item.eventKey, errors);
  const occurredAt = checkOccurredAt(item.occurredAt, received, errors);
  const timeZone = checkTimeZone(item.timeZone, errors);
  const idempotencyKey = checkIdempotencyKey(item.idempotencyKey, errors);
  const rawProperties = checkPropertiesObject(item.properties, errors);
  if (eventKey === undefined || rawProperties === undefined) return { errors };

  const known = rules.events.get(eventKey);
  if (!known && !rules.discovery) {
    return {
      errors: [...errors, error('event.not_found', `No event ${eventKey} is defined.`, { eventKey })],
    };
  }
  if (known && !known.active) {
    return {
      errors: [...errors, error('event.inactive', `Event ${eventKey} is switched off.`, { eventKey })],
    };
  }
  // A known rule is copied only if discovery extends it (most items extend nothing).
  let rule: EventRule = known ?? { key: eventKey, active: true, properties: {} };
  let extended = !known;
  // Only names of a rule are written here, and no rule has `__proto__` (names start with a letter).
  const properties: Record<string, PropertyValue> = {};
  for (const name in rawProperties) {
    const value = rawProperties[name];
    if (value === null) continue; // null is the same as not sending the property
    let propertyRule = Object.hasOwn(rule.properties, name) ? rule.properties[name] : undefined;
    if (!propertyRule) {
      const kind = jsonKind(value);
      if (!rules.discovery || !PropertyNameSchema.safeParse(name).success || !kind) {
        errors.push(
          rules.discovery && !kind
            ? typeMismatch(name, 'a string, number or boolean')
            : error('event.unknown_property', `Event ${eventKey} has no property ${name}.`, {
                property: name,
              }),
        );
        continue;
      }
      propertyRule = { type: kind, required: false };
      if (!extended) rule = { ...rule, properties: { ...rule.properties } };
      rule.properties[name] = propertyRule;
      extended = true;
    }
    const converted = convertProperty(name, value, propertyRule.type);
    if ('error' in converted) errors.push(converted.error);
    else properties[name] = converted.value;
  }
  for (const name of requiredNamesOf(rule)) {
    if (!Object.hasOwn(rawProperties, name) || rawProperties[name] == null) {
      errors.push(
        error('event.required_property_missing', `Property ${name} is required.`, { property: name }),
      );
    }
  }
  if (errors.length > 0 || playerId === undefined || occurredAt === undefined) return { errors };
  return {
    errors,
    event: {
      eventKey,
      playerId,
      occurredAt,
      timeZone,
      properties,
      idempotencyKey,
    },
    ...(extended ? { definedRule: rule } : {}),
  };
}

/** The required property names of each rule, found once per rule rather than once per item. */
const requiredNames = new WeakMap<EventRule, readonly string[]>();

function requiredNamesOf(rule: EventRule): readonly string[] {
  let names = requiredNames.get(rule);
  if (!names) {
    names = Object.keys(rule.properties).filter((name) => rule.properties[name]!.required);
    requiredNames.set(rule, names);
  }
  return names;
}

function checkPlayerId(value: unknown, errors: EventItemError[]): string | undefined {
  if (value === undefined || value === null || value === '') {
    errors.push(error('player.external_id_missing', 'The item does not name a player (playerId).'));
  } else if (typeof value !== 'string') {
    errors.push(validation('playerId', 'playerId must be a string.'));
  } else if (!fitsCharacters(value, MAX_PLAYER_ID_LENGTH)) {
    errors.push(
      error('player.external_id_too_long', `playerId is longer than ${MAX_PLAYER_ID_LENGTH} characters.`),
    );
  } else if (hasControlCharacter(value)) {
    errors.push(validation('playerId', 'playerId must not contain control characters.'));
  } else {
    return value;
  }
  return undefined;
}

/** Event keys found valid before: a game sends a few keys many times (bounded, reset when full). */
let validEventKeys = new Set<string>();

function checkEventKey(value: unknown, errors: EventItemError[]): string | undefined {
  if (typeof value === 'string' && validEventKeys.has(value)) return value;
  const parsed = EventKeySchema.safeParse(value);
  if (parsed.success) {
    if (validEventKeys.size >= 10_000) validEventKeys = new Set();
    validEventKeys.add(parsed.data);
    return parsed.data;
  }
  errors.push(
    validation(
      'eventKey',
      value === undefined ? 'eventKey is required.' : 'eventKey is not a valid event key.',
    ),
  );
  return undefined;
}

function checkOccurredAt(value: unknown, received: Received, errors: EventItemError[]): string | undefined {
  if (value === undefined || value === null) return received.iso;
  const at = typeof value === 'string' ? parseIsoDateTime(value) : undefined;
  if (at === undefined) {
    errors.push(
      validation('occurredAt', 'occurredAt must be an ISO-8601 date and time with Z or an offset.'),
    );
    return undefined;
  }
  const age = received.millis - at;
  if (age > MAX_OCCURRED_AT_AGE_MS || -age > MAX_OCCURRED_AT_LEAD_MS) {
    errors.push(
      error(
        'validation.occurred_at',
        'occurredAt is more than 30 days in the past or 5 minutes in the future.',
        { field: 'occurredAt', reason: age > 0 ? 'too_old' : 'in_the_future' },
      ),
    );
    return undefined;
  }
  return isoOfMillis(value as string, at);
}

function checkTimeZone(value: unknown, errors: EventItemError[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && isIanaTimeZone(value)) return value;
  errors.push(error('player.time_zone_invalid', 'timeZone is not an IANA time zone name.'));
  return null;
}

function checkIdempotencyKey(value: unknown, errors: EventItemError[]): string | null {
  if (value === undefined || value === null) return null;
  if (
    typeof value === 'string' &&
    value.length >= 1 &&
    fitsCharacters(value, MAX_IDEMPOTENCY_KEY_LENGTH) &&
    !hasControlCharacter(value)
  )
    return value;
  errors.push(
    validation(
      'idempotencyKey',
      `idempotencyKey must be text of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters without control characters.`,
    ),
  );
  return null;
}

function checkPropertiesObject(
  value: unknown,
  errors: EventItemError[],
): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) {
    errors.push(validation('properties', 'properties must be an object.'));
    return undefined;
  }
  if (Object.keys(value).length > MAX_PROPERTIES_PER_EVENT) {
    errors.push(validation('properties', `An event carries at most ${MAX_PROPERTIES_PER_EVENT} properties.`));
    return undefined;
  }
  return value;
}

function jsonKind(value: unknown): PropertyType | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number' || isLosslessNumber(value)) return 'number';
  return undefined;
}

type Converted = { value: PropertyValue } | { error: EventItemError };

function convertProperty(name: string, value: unknown, type: PropertyType): Converted {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return { error: typeMismatch(name, 'a string') };
      if (!fitsCharacters(value, MAX_STRING_PROPERTY_LENGTH)) {
        return {
          error: outOfRange(
            name,
            `Property ${name} is longer than ${MAX_STRING_PROPERTY_LENGTH} characters.`,
          ),
        };
      }
      return { value: { type: 'String', string: value, number: null, boolean: null, dateTime: null } };
    case 'boolean':
      if (typeof value !== 'boolean') return { error: typeMismatch(name, 'a boolean') };
      return { value: { type: 'Boolean', string: null, number: null, boolean: value, dateTime: null } };
    case 'number': {
      if (typeof value !== 'number' && !isLosslessNumber(value))
        return { error: typeMismatch(name, 'a number') };
      const decimal = toDecimalText(typeof value === 'number' ? value : String(value));
      if (!decimal.ok) {
        return {
          error: outOfRange(
            name,
            `Property ${name} has more than 8 decimal places or more than 20 digits before the point.`,
          ),
        };
      }
      return { value: { type: 'Number', string: null, number: decimal.text, boolean: null, dateTime: null } };
    }
    case 'dateTime': {
      const millis = typeof value === 'string' ? parseIsoDateTime(value) : undefined;
      if (millis === undefined) return { error: typeMismatch(name, 'an ISO-8601 date and time') };
      const dateTime = isoOfMillis(value as string, millis);
      return { value: { type: 'DateTime', string: null, number: null, boolean: null, dateTime } };
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

const error = (
  code: AnyProblemCode,
  message: string,
  meta: Record<string, unknown> = {},
): EventItemError => ({
  code,
  message,
  meta,
});

const validation = (field: string, message: string) =>
  error(`validation.${fieldCodeName(field)}`, message, { field });

const unknownField = (field: string) =>
  PLAIN_FIELD_NAME.test(field)
    ? validation(field, `Unknown field ${field}.`)
    : error('validation.request', 'The item has a field that is not an event item field.', {
        field: field.slice(0, 64),
      });

function unrepresentableText(place: UnrepresentableText): EventItemError {
  const field = place.path[0];
  const meta = { path: place.path.join('.'), reason: UNREPRESENTABLE_TEXT_REASON };
  const message = unrepresentableTextMessage(place);
  return typeof field === 'string' && PLAIN_FIELD_NAME.test(field)
    ? error(`validation.${fieldCodeName(field)}`, message, { field, ...meta })
    : error('validation.request', message, meta);
}

const typeMismatch = (name: string, expected: string) =>
  error('event.property_type_mismatch', `Property ${name} must be ${expected}.`, { property: name });

const outOfRange = (name: string, message: string) =>
  error('event.property_value_out_of_range', message, { property: name });
