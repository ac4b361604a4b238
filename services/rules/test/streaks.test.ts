import { StreakDefinitionSchema } from '@engage/contracts/environment/streaks.ts';
import { describe, expect, it } from 'vitest';
import { localDate } from '../src/domain/calendar.ts';
import { applyQualifyingEvent, NEW_STREAK, type StreakState, streakProgress } from '../src/domain/streaks.ts';

const daily = StreakDefinitionSchema.parse({
  key: 'daily-play',
  name: 'Daily play',
  events: [{ event: 'level_completed' }],
  milestones: [
    { threshold: 2, rewards: [{ points: 10 }], repeatsAfterReset: true },
    { threshold: 3, rewards: [{ points: 50 }] },
  ],
});
const weekly = StreakDefinitionSchema.parse({ ...daily, key: 'weekly', period: 'weekly', milestones: [] });

/** Feeds events given as [instant, zone] and returns the final state and every step. */
function feed(definition = daily, events: [string, string][], start: StreakState = NEW_STREAK) {
  let state = start;
  const steps = [];
  for (const [instant, zone] of events) {
    const applied = applyQualifyingEvent(definition, state, localDate(instant, zone), zone);
    state = applied.state;
    steps.push(...applied.steps);
  }
  return { state, steps };
}

describe('applyQualifyingEvent (daily)', () => {
  it.each<[string, [string, string][], number, number, string]>([
    ['one event starts a run', [['2024-06-01T10:00:00Z', 'UTC']], 1, 1, '2024-06-01'],
    [
      'two events on one day count once',
      [
        ['2024-06-01T00:00:00Z', 'UTC'],
        ['2024-06-01T23:59:59Z', 'UTC'],
      ],
      1,
      1,
      '2024-06-01',
    ],
    [
      'the second after midnight is the next day',
      [
        ['2024-06-01T23:59:59Z', 'UTC'],
        ['2024-06-02T00:00:00Z', 'UTC'],
      ],
      2,
      2,
      '2024-06-02',
    ],
    [
      'a missed day starts a new run',
      [
        ['2024-06-01T12:00:00Z', 'UTC'],
        ['2024-06-02T12:00:00Z', 'UTC'],
        ['2024-06-04T12:00:00Z', 'UTC'],
      ],
      1,
      2,
      '2024-06-04',
    ],
    [
      'local days, not UTC days: 23:30 and 00:30 in New York are two days',
      [
        ['2024-06-02T03:30:00Z', 'America/New_York'],
        ['2024-06-02T04:30:00Z', 'America/New_York'],
      ],
      2,
      2,
      '2024-06-02',
    ],
    [
      'the 23-hour spring-forward day counts once and links its neighbours',
      [
        ['2024-03-09T17:00:00Z', 'America/New_York'],
        ['2024-03-10T05:30:00Z', 'America/New_York'],
        ['2024-03-11T03:30:00Z', 'America/New_York'],
        ['2024-03-11T16:00:00Z', 'America/New_York'],
      ],
      3,
      3,
      '2024-03-11',
    ],
    [
      'the repeated hour of the 25-hour fall-back day is still that day',
      [
        ['2024-11-03T05:30:00Z', 'America/New_York'], // 01:30 EDT
        ['2024-11-03T06:30:00Z', 'America/New_York'], // 01:30 EST
        ['2024-11-04T04:30:00Z', 'America/New_York'], // 23:30 EST, same day
        ['2024-11-04T05:30:00Z', 'America/New_York'], // 00:30 on the 4th
      ],
      2,
      2,
      '2024-11-04',
    ],
    [
      'a leap day links February 28 and March 1',
      [
        ['2024-02-28T12:00:00Z', 'UTC'],
        ['2024-02-29T12:00:00Z', 'UTC'],
        ['2024-03-01T12:00:00Z', 'UTC'],
      ],
      3,
      3,
      '2024-03-01',
    ],
    [
      'without a leap day February 28 and March 1 are consecutive',
      [
        ['2023-02-28T12:00:00Z', 'UTC'],
        ['2023-03-01T12:00:00Z', 'UTC'],
      ],
      2,
      2,
      '2023-03-01',
    ],
    [
      'flying west: a day already counted in the old zone stays counted, the same local day adds nothing',
      [
        ['2024-06-01T10:00:00Z', 'Asia/Tokyo'], // June 1 in Tokyo
        ['2024-06-02T02:00:00Z', 'America/Los_Angeles'], // still June 1 in Los Angeles
        ['2024-06-02T20:00:00Z', 'America/Los_Angeles'], // June 2 in Los Angeles
      ],
      2,
      2,
      '2024-06-02',
    ],
    [
      'flying east: the next local day in the new zone continues the run',
      [
        ['2024-06-01T20:00:00Z', 'America/Los_Angeles'], // June 1
        ['2024-06-02T16:00:00Z', 'Asia/Tokyo'], // June 3 in Tokyo: a day was skipped
      ],
      1,
      1,
      '2024-06-03',
    ],
    [
      'a late event for a day before the last counted one changes nothing',
      [
        ['2024-06-03T12:00:00Z', 'UTC'],
        ['2024-06-01T12:00:00Z', 'UTC'],
        ['2024-06-04T12:00:00Z', 'UTC'],
      ],
      2,
      2,
      '2024-06-04',
    ],
  ])('%s', (_name, events, current, longest, last) => {
    const { state } = feed(daily, events);
    expect(state).toMatchObject({ currentCount: current, longestCount: longest, lastQualifyingDate: last });
  });

  it('keeps the longest run after a reset and counts runs', () => {
    const { state } = feed(daily, [
      ['2024-06-01T12:00:00Z', 'UTC'],
      ['2024-06-02T12:00:00Z', 'UTC'],
      ['2024-06-03T12:00:00Z', 'UTC'],
      ['2024-06-05T12:00:00Z', 'UTC'],
    ]);
    expect(state).toMatchObject({ run: 2, currentCount: 1, longestCount: 3 });
  });

  it('reports the ended run broken, in the zone it was kept in, right before the next run starts', () => {
    const { steps } = feed(daily, [
      ['2024-06-01T12:00:00Z', 'Asia/Tokyo'],
      ['2024-06-02T12:00:00Z', 'Asia/Tokyo'],
      ['2024-06-05T12:00:00Z', 'UTC'],
    ]);
    expect(steps.filter((s) => s.kind !== 'StreakMilestoneReached')).toEqual([
      { kind: 'StreakExtended', run: 1, count: 1, period: '2024-06-01' },
      { kind: 'StreakExtended', run: 1, count: 2, period: '2024-06-02' },
      // Day 06-03 was its last chance: it broke at midnight of 06-04 in Tokyo.
      {
        kind: 'StreakBroken',
        run: 1,
        count: 2,
        lastPeriod: '2024-06-02',
        endedAtMs: Date.parse('2024-06-03T15:00:00Z'),
      },
      { kind: 'StreakExtended', run: 2, count: 1, period: '2024-06-05' },
    ]);
    // A run that goes on, and a first run, break nothing.
    expect(feed(daily, [['2024-06-01T12:00:00Z', 'UTC']]).steps.map((s) => s.kind)).toEqual([
      'StreakExtended',
    ]);
  });

  it('reaches milestones once per run; a repeating one is rewarded again after a reset, the other not', () => {
    const days = (first: number, n: number) =>
      Array.from({ length: n }, (_, i): [string, string] => [
        `2024-06-${String(first + i).padStart(2, '0')}T12:00:00Z`,
        'UTC',
      ]);
    const { steps } = feed(daily, [...days(1, 4), ...days(10, 3)]);
    const reached = steps.flatMap((s) =>
      s.kind === 'StreakMilestoneReached' ? [[s.run, s.milestone.threshold, s.rewarded]] : [],
    );
    expect(reached).toEqual([
      [1, 2, true],
      [1, 3, true],
      [2, 2, true],
      [2, 3, false],
    ]);
  });

  it('needs eventsPerPeriod events in one period', () => {
    const twice = { ...daily, eventsPerPeriod: 2 };
    const { state } = feed(twice, [
      ['2024-06-01T10:00:00Z', 'UTC'],
      ['2024-06-02T10:00:00Z', 'UTC'],
      ['2024-06-02T11:00:00Z', 'UTC'],
    ]);
    expect(state).toMatchObject({ currentCount: 1, lastQualifyingDate: '2024-06-02', pendingPeriod: null });
  });
});

describe('applyQualifyingEvent (weekly)', () => {
  it.each<[string, string[], number]>([
    ['Monday and Sunday are one week', ['2024-06-03T08:00:00Z', '2024-06-09T20:00:00Z'], 1],
    ['Sunday and the next Monday are two weeks', ['2024-06-09T20:00:00Z', '2024-06-10T08:00:00Z'], 2],
    ['a skipped week resets', ['2024-06-03T08:00:00Z', '2024-06-17T08:00:00Z'], 1],
    ['weeks across a year end', ['2024-12-30T08:00:00Z', '2025-01-06T08:00:00Z'], 2],
  ])('%s', (_name, instants, count) => {
    const { state } = feed(
      weekly,
      instants.map((i) => [i, 'UTC']),
    );
    expect(state.currentCount).toBe(count);
  });
});

describe('streakProgress', () => {
  const after = (events: [string, string][]) => feed(daily, events).state;

  it('shows a player who never qualified as NotStarted, with the first milestone ahead', () => {
    const view = streakProgress(daily, NEW_STREAK, Date.parse('2024-06-01T12:00:00Z'));
    expect(view).toMatchObject({
      status: 'NotStarted',
      currentCount: 0,
      todayCounts: false,
      runExpiresAtUtc: null,
      nextMilestoneThreshold: 2,
    });
  });

  it.each<[string, string, object]>([
    [
      'later the same local day: Active, today counts, expires when the day after tomorrow starts',
      '2024-03-09T23:00:00Z',
      { status: 'Active', currentCount: 2, todayCounts: true, runExpiresAtUtc: '2024-03-11T04:00:00.000Z' },
    ],
    [
      'the next local day: AtRisk until the end of that 23-hour day',
      '2024-03-10T12:00:00Z',
      { status: 'AtRisk', currentCount: 2, todayCounts: false, runExpiresAtUtc: '2024-03-11T04:00:00.000Z' },
    ],
    [
      'once that day is over: Broken, the count shows 0, the longest run stays',
      '2024-03-11T04:00:00Z',
      { status: 'Broken', currentCount: 0, longestCount: 2, runExpiresAtUtc: null },
    ],
  ])('%s', (_name, now, expected) => {
    const state = after([
      ['2024-03-08T17:00:00Z', 'America/New_York'],
      ['2024-03-09T17:00:00Z', 'America/New_York'],
    ]);
    expect(streakProgress(daily, state, Date.parse(now))).toMatchObject(expected);
  });

  it('marks reached milestones and names the next one', () => {
    const state = after([
      ['2024-06-01T12:00:00Z', 'UTC'],
      ['2024-06-02T12:00:00Z', 'UTC'],
    ]);
    const view = streakProgress(daily, state, Date.parse('2024-06-02T13:00:00Z'));
    expect(view.milestones.map((m) => [m.milestone.threshold, m.isReached])).toEqual([
      [2, true],
      [3, false],
    ]);
    expect(view.nextMilestoneThreshold).toBe(3);
  });

  it('after a reset a repeating milestone is open again, a one-time milestone stays reached', () => {
    const state = after(
      ['01', '02', '03', '10'].map((d): [string, string] => [`2024-06-${d}T12:00:00Z`, 'UTC']),
    );
    const view = streakProgress(daily, state, Date.parse('2024-06-10T13:00:00Z'));
    expect(view.milestones.map((m) => m.isReached)).toEqual([false, true]);
    expect(view.nextMilestoneThreshold).toBe(2);
  });

  it('reads the run in the zone of its latest qualifying event', () => {
    const state = after([['2024-06-01T20:00:00Z', 'Asia/Tokyo']]); // June 2 in Tokyo
    expect(state.timeZone).toBe('Asia/Tokyo');
    expect(streakProgress(daily, state, Date.parse('2024-06-02T10:00:00Z'))).toMatchObject({
      status: 'Active',
      lastQualifyingDate: '2024-06-02',
      runExpiresAtUtc: '2024-06-03T15:00:00.000Z',
    });
  });
});
