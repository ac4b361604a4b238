import { fitsCharacters } from '../characters.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH, MAX_PLAYER_ID_LENGTH } from '../http/common.ts';
import {
  EVENT_KEY_PATTERN,
  MAX_EVENT_KEY_LENGTH,
  MAX_PROPERTIES_PER_EVENT,
  MAX_PROPERTY_NAME_LENGTH,
  MAX_STRING_PROPERTY_LENGTH,
  PROPERTY_NAME_PATTERN,
} from '../http/events.ts';
import { hasControlCharacter, isRepresentableText } from '../text.ts';
import type { AcceptedEvent } from './catalog.ts';

/** An id as the API takes it: 1 to `limit` characters, representable, no control characters. */
const isId = (text: string, limit: number) =>
  text.length > 0 && fitsCharacters(text, limit) && isRepresentableText(text) && !hasControlCharacter(text);

/**
 * Why an accepted event written to the topic is one the API would have refused (undefined: none):
 * a consumer sets such a record aside rather than apply what no caller could have sent. Checks the
 * fields the API bounds (ids, keys, property names and texts); what the gateway alone can judge
 * (the environment's definitions, times, zones) it leaves to the gateway.
 */
export function acceptedEventDefect(event: AcceptedEvent): string | undefined {
  if (!isId(event.playerId, MAX_PLAYER_ID_LENGTH))
    return `playerId is not 1 to ${MAX_PLAYER_ID_LENGTH} characters of text the API takes`;
  if (event.eventKey.length > MAX_EVENT_KEY_LENGTH || !EVENT_KEY_PATTERN.test(event.eventKey))
    return 'eventKey is not an event key the API takes';
  if (event.idempotencyKey !== null && !isId(event.idempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH))
    return `idempotencyKey is not 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters of text the API takes`;
  const names = Object.keys(event.properties);
  if (names.length > MAX_PROPERTIES_PER_EVENT) return `more than ${MAX_PROPERTIES_PER_EVENT} properties`;
  for (const name of names) {
    if (name.length > MAX_PROPERTY_NAME_LENGTH || !PROPERTY_NAME_PATTERN.test(name))
      return `property name ${JSON.stringify(name)} is not one the API takes`;
    const text = event.properties[name]!.string;
    if (text !== null && !(fitsCharacters(text, MAX_STRING_PROPERTY_LENGTH) && isRepresentableText(text)))
      return `property ${name} is not at most ${MAX_STRING_PROPERTY_LENGTH} characters of text the API takes`;
  }
  return undefined;
}
