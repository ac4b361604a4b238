import { type AcceptedEvent, formatUnscaled, parseUnscaled } from '@engage/contracts';

/** Numbers on the events topic carry 8 decimal places; sums are kept exact at that scale. */
const SCALE = 8;
/** Decimal text exactly as formatUnscaled writes it (no trailing fraction zeros, at most SCALE places). */
const CANONICAL_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d{0,7}[1-9])?$/;

/** What one batch adds to one player's record of one event key. */
export interface EventTally {
  environmentId: string;
  playerId: string;
  eventKey: string;
  count: number;
  lastEventId: string;
  /** Sum of each numeric property, as exact decimal text. */
  sums: Record<string, string>;
}

type TalliedEvent = Pick<AcceptedEvent, 'eventId' | 'environmentId' | 'playerId' | 'eventKey' | 'properties'>;

/**
 * A property's running sum: the one value's own text while only one event carried it (most players
 * send one event per batch, so most sums are never parsed), a scaled integer once there are more.
 */
type Sum = string | bigint;

/**
 * Adds up a batch of events (in offset order) per environment, player and event key. The result is
 * a delta: counts and sums only ever add, so applying it to the stored totals needs no read.
 */
export function tallyEvents(events: readonly TalliedEvent[]): EventTally[] {
  const tallies = new Map<string, { tally: EventTally; sums: Map<string, Sum> }>();
  for (const event of events) {
    const key = `${event.environmentId}\u0000${event.playerId}\u0000${event.eventKey}`;
    let entry = tallies.get(key);
    if (!entry) {
      const { environmentId, playerId, eventKey } = event;
      entry = {
        tally: { environmentId, playerId, eventKey, count: 0, lastEventId: event.eventId, sums: {} },
        sums: new Map(),
      };
      tallies.set(key, entry);
    }
    entry.tally.count++;
    entry.tally.lastEventId = event.eventId;
    for (const property in event.properties) {
      const value = event.properties[property]!;
      if (value.type === 'Number') addTo(entry.sums, property, value.number);
    }
  }
  const result: EventTally[] = [];
  for (const { tally, sums } of tallies.values()) {
    for (const [property, sum] of sums) {
      tally.sums[property] = typeof sum === 'string' ? sum : formatUnscaled(sum, SCALE);
    }
    result.push(tally);
  }
  return result;
}

function addTo(sums: Map<string, Sum>, property: string, text: string | null): void {
  if (text === null) return;
  const sum = sums.get(property);
  if (sum === undefined && CANONICAL_DECIMAL.test(text) && text !== '-0') {
    sums.set(property, text);
    return;
  }
  const unscaled = parseUnscaled(text, SCALE);
  if (unscaled === undefined) return; // the gateway only accepts numbers that fit the scale
  const before = sum === undefined ? 0n : typeof sum === 'string' ? parseUnscaled(sum, SCALE)! : sum;
  sums.set(property, before + unscaled);
}
