/**
 * ISO-8601 date-times as the API accepts them (`z.iso.datetime({ offset: true })`: RFC 3339 with
 * seconds, any number of fraction digits, `Z` or a `±hh:mm` offset, a real calendar date), read in
 * one pass into epoch millis the way `Date.parse` reads them (fraction truncated to milliseconds).
 * The regex and `new Date` cost each item of a batch several times this.
 */

const ZERO = 48;
const digit = (text: string, at: number) => {
  const d = text.charCodeAt(at) - ZERO;
  return d >= 0 && d <= 9 ? d : -1;
};
/** Two digits at `at` as a number, or -1. */
const twoDigits = (text: string, at: number) => {
  const tens = digit(text, at);
  const ones = digit(text, at + 1);
  return tens < 0 || ones < 0 ? -1 : tens * 10 + ones;
};

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days from 1970-01-01 to a proleptic Gregorian date (exact for every year, unlike Date.UTC's 0–99). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Epoch millis of an accepted date-time, or undefined when the text is not one. */
export function parseIsoDateTime(text: string): number | undefined {
  // YYYY-MM-DDThh:mm:ss is 19 characters; the shortest zone is `Z`.
  if (text.length < 20) return undefined;
  const century = twoDigits(text, 0);
  const yearOfCentury = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (
    century < 0 ||
    yearOfCentury < 0 ||
    text.charCodeAt(4) !== 45 /* - */ ||
    text.charCodeAt(7) !== 45 /* - */ ||
    text.charCodeAt(10) !== 84 /* T */ ||
    text.charCodeAt(13) !== 58 /* : */ ||
    text.charCodeAt(16) !== 58 /* : */ ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59
  ) {
    return undefined;
  }
  const year = century * 100 + yearOfCentury;
  const daysInMonth = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day > daysInMonth) return undefined;

  let at = 19;
  let millis = 0;
  if (text.charCodeAt(at) === 46 /* . */) {
    at++;
    const start = at;
    while (digit(text, at) >= 0) {
      if (at - start < 3) millis += digit(text, at) * 10 ** (2 - (at - start));
      at++;
    }
    if (at === start) return undefined;
  }

  let offsetMinutes = 0;
  const zone = text.charCodeAt(at);
  if (zone === 90 /* Z */) {
    if (at + 1 !== text.length) return undefined;
  } else if (zone === 43 /* + */ || zone === 45 /* - */) {
    const offsetHour = twoDigits(text, at + 1);
    const offsetMinute = twoDigits(text, at + 4);
    if (
      at + 6 !== text.length ||
      text.charCodeAt(at + 3) !== 58 /* : */ ||
      offsetHour < 0 ||
      offsetHour > 23 ||
      offsetMinute < 0 ||
      offsetMinute > 59
    ) {
      return undefined;
    }
    offsetMinutes = (zone === 43 ? 1 : -1) * (offsetHour * 60 + offsetMinute);
  } else {
    return undefined;
  }
  const days = daysFromCivil(year, month, day);
  return (((days * 24 + hour) * 60 + minute - offsetMinutes) * 60 + second) * 1000 + millis;
}

/** The UTC form `Date#toISOString` gives, without building a Date when the text already is it. */
export function isoOfMillis(text: string, millis: number): string {
  return text.length === 24 && text.charCodeAt(19) === 46 && text.charCodeAt(23) === 90
    ? text
    : new Date(millis).toISOString();
}
