import { describe, expect, it } from 'vitest';
import { type CpuSpent, cpuPerUnit, machineBusyShare } from '../src/cpu-meter.ts';

const spent: CpuSpent = {
  processes: { gateway: 300, ledger: 150 },
  postgres: { total: 200, gateway: 120, ledger: 80, other: 0 },
  redis: 4,
  broker: 10,
  bench: 60,
  machine: 800,
  rest: 76,
};

describe('CPU per unit of work', () => {
  it('gives each part in µs per unit, largest first, with Postgres split by service and the machine last', () => {
    expect(cpuPerUnit(spent, 1_000)).toBe(
      'gateway 300, Postgres 200 (gateway 120, ledger 80.0), ledger 150, rest 76.0, bench client 60.0, Kafka broker 10.0, Redis 4.0; the whole machine 800',
    );
  });

  it('scales to a number of units, as per 1,000 events', () => {
    expect(cpuPerUnit(spent, 1_000_000, 1_000)).toMatch(
      /^gateway 300, Postgres 200 .*; the whole machine 800$/,
    );
  });

  it('names the Postgres backends of no service when they used CPU', () => {
    const withOther = { ...spent, postgres: { ...spent.postgres, other: 40, total: 240 } };
    expect(cpuPerUnit(withOther, 1_000)).toContain('Postgres 240 (gateway 120, ledger 80.0, other 40.0)');
  });

  it('gives the machine busy share over the cores', () => {
    expect(machineBusyShare(spent, 2, 2)).toBeCloseTo(0.2);
  });
});
