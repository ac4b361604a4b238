import { type AcceptedEvent, formatUnscaled, parseUnscaled } from '@engage/contracts';

/** Numbers on the events topic carry 8 decimal places; sums are kept exact at that scale. */
const SCALE = 8;

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
 * Adds up a batch of events (in offset order) per environment, player and event key. The result is
 * a delta: counts and sums only ever add, so applying it to the stored totals needs no read.
 */
export function tallyEvents(events: readonly TalliedEvent[]): EventTally[] {
  const tallies = new Map<string, { tally: EventTally; sums: Map<string, bigint> }>();
  for (const event of events) {
    const key = JSON.stringify([event.environmentId, event.playerId, event.eventKey]);
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
    for (const [property, value] of Object.entries(event.properties)) {
      if (value.type !== 'Number') continue;
      const unscaled = parseUnscaled(value.number, SCALE);
      if (unscaled === undefined) continue; // the gateway only accepts numbers that fit the scale
      entry.sums.set(property, (entry.sums.get(property) ?? 0n) + unscaled);
    }
  }
  return [...tallies.values()].map(({ tally, sums }) => ({
    ...tally,
    sums: Object.fromEntries([...sums].map(([property, sum]) => [property, formatUnscaled(sum, SCALE)])),
  }));
}
