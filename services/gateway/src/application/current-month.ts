import { monthOf } from '../domain/quota.ts';

/**
 * The quota month (`monthOf`) of a time, worked out again only when the time leaves the month last
 * worked out: most requests of a process fall in the same month.
 */
export function monthCache(clock: () => number = Date.now): (at?: number) => string {
  let month = '';
  let startsAt = 0;
  let endsAt = 0;
  return (at = clock()) => {
    if (at < startsAt || at >= endsAt) {
      const date = new Date(at);
      month = monthOf(date);
      startsAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
      endsAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    }
    return month;
  };
}

/** The month of now, or of `at` (ms since the epoch). */
export const currentMonth = monthCache();
