import { firstCharacters, fitsCharacters } from '@engage/contracts';
import type { EventItemError, EventItemResult } from '@engage/contracts/http/events.ts';
import {
  RECENT_EVENT_PROPERTIES_LIMIT,
  RECENT_EVENT_TEXT_LIMIT,
  type RecentEvent,
  type RecentEventRefusal,
} from '@engage/contracts/http/recent-events.ts';
import { stringify } from 'lossless-json';

/** What the debugger keeps of one item of a batch (its `id` is given by the store). */
export type RecordedItem = Omit<RecentEvent, 'id'>;

/**
 * The items of a batch worth recording, as kept: every refused item, and the accepted ones too when
 * `withAccepted` (someone is watching). At most `max`, the batch's last ones (the record keeps the
 * newest anyway). Text the caller sent is cut to bounded sizes, so a hostile batch costs little.
 */
export function itemsToRecord(
  items: readonly unknown[],
  results: readonly EventItemResult[],
  receivedAt: Date,
  options: { withAccepted: boolean; max: number },
): RecordedItem[] {
  const chosen = options.withAccepted ? results : results.filter((r) => !r.accepted);
  const receivedIso = receivedAt.toISOString();
  return chosen.slice(-options.max).map((result) => recordedItem(items[result.index], result, receivedIso));
}

function recordedItem(item: unknown, result: EventItemResult, receivedAt: string): RecordedItem {
  const fields = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
  const playerId = cut(fields.playerId, RECENT_EVENT_TEXT_LIMIT);
  const eventKey = cut(fields.eventKey, RECENT_EVENT_TEXT_LIMIT);
  const properties = propertiesText(fields.properties);
  return {
    receivedAt,
    playerId: playerId.text,
    eventKey: eventKey.text,
    accepted: result.accepted,
    eventId: result.eventId,
    errors: result.errors.map(refusalOf),
    properties: properties.text,
    truncated: playerId.cut || eventKey.cut || properties.cut,
  };
}

function cut(value: unknown, limit: number): { text: string | null; cut: boolean } {
  if (typeof value !== 'string') return { text: null, cut: false };
  return fitsCharacters(value, limit)
    ? { text: value, cut: false }
    : { text: firstCharacters(value, limit), cut: true };
}

function propertiesText(value: unknown): { text: string | null; cut: boolean } {
  if (value === undefined) return { text: null, cut: false };
  let text: string;
  try {
    // Lossless: numbers keep the digits the caller sent.
    text = stringify(value) ?? 'null';
  } catch {
    text = String(value);
  }
  return cut(text, RECENT_EVENT_PROPERTIES_LIMIT) as { text: string; cut: boolean };
}

/** The refusal as the debugger shows it: where in the item it lies, from the error's meta. */
export function refusalOf(error: EventItemError): RecentEventRefusal {
  const { meta } = error;
  const path =
    typeof meta.path === 'string' && meta.path !== ''
      ? meta.path
      : typeof meta.property === 'string'
        ? `properties.${meta.property}`
        : typeof meta.field === 'string'
          ? meta.field
          : pathOfCode(error.code);
  return { code: error.code, message: error.message, path };
}

/** Codes that name their field themselves. */
function pathOfCode(code: string): string | null {
  if (code.startsWith('player.external_id')) return 'playerId';
  if (code === 'player.time_zone_invalid') return 'timeZone';
  if (code === 'event.not_found' || code === 'event.inactive') return 'eventKey';
  return null;
}
