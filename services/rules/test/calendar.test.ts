import { describe, expect, it } from 'vitest';
import {
  addDays,
  localDate,
  periodOf,
  shiftPeriod,
  startOfLocalDay,
  weekStart,
  zoneOrUtc,
} from '../src/domain/calendar.ts';

describe('localDate', () => {
  it.each([
    // midnight: the last second of a day and the first of the next
    ['2024-06-01T03:59:59Z', 'America/New_York', '2024-05-31'],
    ['2024-06-01T04:00:00Z', 'America/New_York', '2024-06-01'],
    ['2024-06-01T14:59:59Z', 'Asia/Tokyo', '2024-06-01'],
    ['2024-06-01T15:00:00Z', 'Asia/Tokyo', '2024-06-02'],
    // a zone off by a quarter hour
    ['2024-06-01T18:14:59Z', 'Asia/Kathmandu', '2024-06-01'],
    ['2024-06-01T18:15:00Z', 'Asia/Kathmandu', '2024-06-02'],
    // spring forward (New York skips 02:00-03:00 on 2024-03-10): the 23-hour day is one day
    ['2024-03-10T05:00:00Z', 'America/New_York', '2024-03-10'],
    ['2024-03-11T03:59:59Z', 'America/New_York', '2024-03-10'],
    ['2024-03-11T04:00:00Z', 'America/New_York', '2024-03-11'],
    // fall back (01:00-02:00 happens twice on 2024-11-03): the 25-hour day is one day
    ['2024-11-03T04:00:00Z', 'America/New_York', '2024-11-03'],
    ['2024-11-04T04:59:59Z', 'America/New_York', '2024-11-03'],
    ['2024-11-04T05:00:00Z', 'America/New_York', '2024-11-04'],
    // a leap day
    ['2024-02-29T12:00:00Z', 'Europe/Paris', '2024-02-29'],
    ['2024-02-29T23:30:00Z', 'Europe/Paris', '2024-03-01'],
  ])('%s in %s is %s', (instant, zone, date) => {
    expect(localDate(instant, zone)).toBe(date);
  });

  it('reads an unknown or missing zone as UTC', () => {
    expect(zoneOrUtc('Mars/Olympus')).toBe('UTC');
    expect(zoneOrUtc(null)).toBe('UTC');
    expect(zoneOrUtc('Europe/Berlin')).toBe('Europe/Berlin');
  });
});

describe('calendar arithmetic', () => {
  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2024-12-31', 1, '2025-01-01'],
    ['2024-03-01', -1, '2024-02-29'],
  ])('%s plus %i day(s) is %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it.each([
    ['2024-06-03', '2024-06-03'], // a Monday
    ['2024-06-09', '2024-06-03'], // the Sunday after
    ['2024-06-10', '2024-06-10'],
    ['2025-01-01', '2024-12-30'], // ISO weeks cross years
    ['2024-03-03', '2024-02-26'], // across a leap day
  ])('the week of %s starts on %s', (date, monday) => {
    expect(weekStart(date)).toBe(monday);
    expect(periodOf(date, 'weekly')).toBe(monday);
  });

  it('moves periods by days or weeks', () => {
    expect(shiftPeriod('2024-02-28', 'daily', 1)).toBe('2024-02-29');
    expect(shiftPeriod('2024-02-26', 'weekly', 1)).toBe('2024-03-04');
    expect(shiftPeriod('2024-02-26', 'weekly', -1)).toBe('2024-02-19');
  });
});

describe('startOfLocalDay', () => {
  it.each([
    ['2024-06-01', 'UTC', '2024-06-01T00:00:00.000Z'],
    ['2024-06-01', 'Asia/Tokyo', '2024-05-31T15:00:00.000Z'],
    ['2024-06-01', 'Asia/Kathmandu', '2024-05-31T18:15:00.000Z'],
    // days around New York's changes start at local midnight with the offset of that midnight
    ['2024-03-10', 'America/New_York', '2024-03-10T05:00:00.000Z'],
    ['2024-03-11', 'America/New_York', '2024-03-11T04:00:00.000Z'],
    ['2024-11-03', 'America/New_York', '2024-11-03T04:00:00.000Z'],
    ['2024-11-04', 'America/New_York', '2024-11-04T05:00:00.000Z'],
    // Havana and Santiago spring forward at midnight: the day starts at 01:00, the change itself
    ['2024-03-10', 'America/Havana', '2024-03-10T05:00:00.000Z'],
    ['2024-09-08', 'America/Santiago', '2024-09-08T04:00:00.000Z'],
    // Beirut falls back from 00:00 to 23:00: the day begins once the clock reaches midnight again
    ['2024-10-27', 'Asia/Beirut', '2024-10-26T22:00:00.000Z'],
    // Lord Howe moves by half an hour
    ['2024-04-07', 'Australia/Lord_Howe', '2024-04-06T13:00:00.000Z'],
    ['2024-02-29', 'Pacific/Kiritimati', '2024-02-28T10:00:00.000Z'],
  ])('%s in %s starts at %s', (date, zone, instant) => {
    const start = startOfLocalDay(date, zone);
    expect(new Date(start).toISOString()).toBe(instant);
    expect(localDate(start, zone)).toBe(date);
    expect(localDate(start - 1000, zone)).toBe(addDays(date, -1));
  });
});
