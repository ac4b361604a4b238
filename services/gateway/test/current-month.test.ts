import { describe, expect, it } from 'vitest';
import { monthCache } from '../src/application/current-month.ts';
import { monthOf } from '../src/domain/quota.ts';

describe('the month cache', () => {
  it('answers as monthOf on either side of a month boundary, the clock moving both ways', () => {
    const boundary = Date.parse('2025-02-01T00:00:00.000Z');
    let now = boundary - 1;
    const month = monthCache(() => now);
    expect(month()).toBe('2025-01-01');
    now = boundary;
    expect(month()).toBe('2025-02-01');
    now = boundary - 1; // a clock set back
    expect(month()).toBe('2025-01-01');
    for (const at of [boundary - 86_400_000, boundary + 1, Date.parse('2024-12-31T23:59:59.999Z')]) {
      expect(month(at)).toBe(monthOf(new Date(at)));
    }
  });

  it('gives the last month of a year its next one in January', () => {
    let now = Date.parse('2024-12-31T23:59:59.999Z');
    const month = monthCache(() => now);
    expect(month()).toBe('2024-12-01');
    now += 1;
    expect(month()).toBe('2025-01-01');
  });
});
