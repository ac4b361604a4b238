import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';

const HOUR_MS = 3_600_000;

/** One sale period of an item: its number and the instants it runs between (null: unbounded). */
export interface Occurrence {
  number: number;
  startsAt: Date | null;
  endsAt: Date | null;
}

/**
 * The occurrence of an item at `now`. An item without recurrence has one occurrence, number 1,
 * running over its availability window. A recurring item's occurrence n runs from
 * anchor + (n - 1) periods to anchor + n periods, the anchor being `availableFromUtc` (or the Unix
 * epoch), clipped to the availability window; stock and purchase limits count per occurrence, so
 * each occurrence restocks. Before the anchor the item is in its first occurrence, not yet started.
 */
export function occurrenceAt(item: MarketplaceItemDefinition, now: Date): Occurrence {
  const from = item.availableFromUtc ? new Date(item.availableFromUtc) : null;
  const until = item.availableUntilUtc ? new Date(item.availableUntilUtc) : null;
  if (!item.recurrence) return { number: 1, startsAt: from, endsAt: until };
  const period = item.recurrence.everyHours * HOUR_MS;
  const anchor = from?.getTime() ?? 0;
  const elapsed = Math.max(0, now.getTime() - anchor);
  const number = Math.floor(elapsed / period) + 1;
  const startsAt = new Date(anchor + (number - 1) * period);
  const periodEnd = new Date(anchor + number * period);
  return { number, startsAt, endsAt: until && until < periodEnd ? until : periodEnd };
}

export type Window = 'open' | 'not_started' | 'ended';

/** Whether the item is on sale at `now` (its availability window, not its occurrence's end). */
export function windowAt(item: MarketplaceItemDefinition, now: Date): Window {
  if (item.availableFromUtc && now < new Date(item.availableFromUtc)) return 'not_started';
  if (item.availableUntilUtc && now >= new Date(item.availableUntilUtc)) return 'ended';
  return 'open';
}
