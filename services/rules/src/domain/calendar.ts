/**
 * Calendar arithmetic for streaks: local dates of instants in IANA zones (daylight saving included)
 * and the instant a local day starts. Dates are `YYYY-MM-DD` strings, which sort like the days.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is a zone this runtime knows (unknown zones are read as UTC). */
export function isKnownZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone to read an event's day in: its own when known, else UTC. */
export function zoneOrUtc(timeZone: string | null | undefined): string {
  return timeZone && isKnownZone(timeZone) ? timeZone : 'UTC';
}

interface WallClock {
  date: string;
  /** Milliseconds since local midnight. */
  timeMs: number;
  /** The wall clock read as if it were UTC. */
  asUtcMs: number;
}

function wallClock(instantMs: number, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) parts[part.type] = part.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const timeMs = (Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second)) * 1000;
  return { date, timeMs, asUtcMs: Date.parse(`${date}T00:00:00Z`) + timeMs };
}

/** The player's local date of an instant in `timeZone`. */
export function localDate(instant: string | number, timeZone: string): string {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  const minute = Math.floor(ms / MINUTE_MS);
  const key = `${timeZone} ${minute}`;
  const cached = datesByMinute.get(key);
  if (cached !== undefined) return cached;
  const clock = wallClock(ms, timeZone);
  // With an offset of whole minutes (every zone since the 1970s) local midnight falls on a whole
  // UTC minute, so the whole UTC minute has one local date; older odd offsets are not cached.
  if ((clock.asUtcMs - Math.floor(ms / 1000) * 1000) % MINUTE_MS === 0) {
    if (datesByMinute.size >= DATE_CACHE_SIZE) datesByMinute.clear();
    datesByMinute.set(key, clock.date);
  }
  return clock.date;
}

const MINUTE_MS = 60_000;
const DATE_CACHE_SIZE = 10_000;
/** Local dates by zone and UTC minute: formatting a date in a zone is slow and events come in bursts. */
const datesByMinute = new Map<string, string>();

/** `date` moved by `days` calendar days (leap days included). */
export function addDays(date: string, days: number): string {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** The Monday of the ISO week of `date`. */
export function weekStart(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

export type StreakPeriod = 'daily' | 'weekly';

/** The period a local date falls in, named by its first day. */
export function periodOf(date: string, period: StreakPeriod): string {
  return period === 'daily' ? date : weekStart(date);
}

/** The period after (`steps` = 1) or before (-1) the given one. */
export function shiftPeriod(periodStart: string, period: StreakPeriod, steps: number): string {
  return addDays(periodStart, steps * (period === 'daily' ? 1 : 7));
}

/**
 * The first instant of the local day `date` in `timeZone`. Usually local midnight; where a
 * daylight-saving change skips midnight (e.g. America/Havana) the day starts at the change; where
 * midnight happens twice (a fall-back at midnight), the earlier one.
 */
export function startOfLocalDay(date: string, timeZone: string): number {
  const midnightAsUtc = Date.parse(`${date}T00:00:00Z`);
  // Two rounds of "subtract the offset" land on local midnight whenever it exists.
  let guess = midnightAsUtc - (wallClock(midnightAsUtc, timeZone).asUtcMs - midnightAsUtc);
  guess = midnightAsUtc - (wallClock(guess, timeZone).asUtcMs - guess);
  for (const earlier of [3_600_000, 1_800_000]) {
    const candidate = wallClock(guess - earlier, timeZone);
    if (candidate.date === date && candidate.timeMs === 0) return guess - earlier;
  }
  const at = wallClock(guess, timeZone);
  if (at.date === date && at.timeMs === 0) return guess;
  // Midnight does not exist that day: find the change, the first instant whose date is `date`.
  // Zone changes happen on whole seconds, and the wall clock is read to the second.
  let low = Math.floor(guess / 1_000) - 3 * 3_600;
  let high = Math.floor(guess / 1_000) + 3 * 3_600;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallClock(middle * 1_000, timeZone).date >= date) high = middle;
    else low = middle;
  }
  return high * 1_000;
}
