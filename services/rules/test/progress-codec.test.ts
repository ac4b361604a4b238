import { describe, expect, it } from 'vitest';
import type { PlayerMissions } from '../src/domain/missions.ts';
import { decodeMissions, encodeCounters, encodeEntries } from '../src/store/progress-codec.ts';

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

const roundTrip = (m: PlayerMissions) => {
  const { json, layout } = encodeEntries(m);
  return decodeMissions(JSON.parse(json), JSON.parse(encodeCounters(layout)));
};

describe('stored mission entries and counters', () => {
  it('round-trip exactly', () => {
    expect(roundTrip(missions).missions).toEqual(missions);
    expect(roundTrip({}).missions).toEqual({});
  });

  it('hold every value in the counters, one slot per objective, in the layout read back', () => {
    const { json, layout } = encodeEntries(missions);
    expect(encodeCounters(layout)).toBe('[3,12.5,2,2]');
    const read = decodeMissions(JSON.parse(json), [3, 12.5, 2, 2]);
    expect(read.layout).toEqual(layout);
    // The layout holds the decoded progress objects themselves, in slot order.
    const done = read.missions.done!.objectives;
    expect(read.layout).toEqual([done.count, done.sum, done.maps, done.both]);
    read.layout.forEach((progress, slot) => {
      expect(progress).toBe(Object.values(done)[slot]);
    });
  });

  it('take values changed in place at the same slots while the entries stay', () => {
    const moved = structuredClone(missions);
    const { json, layout } = encodeEntries(moved);
    moved.done!.objectives.sum!.value = 20;
    moved.done!.objectives.count!.value = 4;
    expect(encodeCounters(layout)).toBe('[4,20,2,2]');
    expect(decodeMissions(JSON.parse(json), JSON.parse(encodeCounters(layout))).missions).toEqual(moved);
  });

  it('are several times smaller than the entries', () => {
    const { json, layout } = encodeEntries(missions);
    expect((json.length + encodeCounters(layout).length) * 2).toBeLessThan(JSON.stringify(missions).length);
  });
});
