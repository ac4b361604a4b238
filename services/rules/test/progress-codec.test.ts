import { describe, expect, it } from 'vitest';
import type { PlayerMissions } from '../src/domain/missions.ts';
import { decodeMissions, encodeMissions, encodeMissionsJson } from '../src/store/progress-codec.ts';

const missions: PlayerMissions = {
  fresh: {
    occurrence: 1,
    enteredAt: '2024-06-01T10:00:00.000Z',
    acceptedAt: null,
    countingSince: null,
    completedAt: null,
    completionShown: false,
    objectives: {},
  },
  done: {
    occurrence: 3,
    enteredAt: '2024-06-01T10:00:00.000Z',
    acceptedAt: '2024-06-01T10:05:00.123Z',
    countingSince: '2024-06-01T10:05:00.123Z',
    completedAt: '2024-06-02T00:00:00.001Z',
    completionShown: true,
    objectives: {
      count: { value: 3, satisfied: true },
      sum: { value: 12.5 },
      maps: { value: 2, seen: ['a', 'b'] },
      both: { value: 2, seen: ['1', '2'], satisfied: true },
    },
  },
};

describe('stored mission entries', () => {
  it('round-trip exactly', () => {
    expect(decodeMissions(JSON.parse(JSON.stringify(encodeMissions(missions))))).toEqual(missions);
  });

  it('as JSON text: the same document, also for an entry encoded before', () => {
    const expected = encodeMissions(missions);
    expect(JSON.parse(encodeMissionsJson(missions))).toEqual(expected);
    expect(JSON.parse(encodeMissionsJson(missions))).toEqual(expected);
    expect(encodeMissionsJson({})).toBe('{}');
  });

  it('are several times smaller than the entries', () => {
    expect(JSON.stringify(encodeMissions(missions)).length * 2).toBeLessThan(JSON.stringify(missions).length);
  });

  it('read rows written before the compact form as they are', () => {
    expect(decodeMissions(JSON.parse(JSON.stringify(missions)))).toEqual(missions);
  });
});
