import type { AcceptedEvent } from '@engage/contracts';
import { MissionDefinitionSchema, MissionsSectionSchema } from '@engage/contracts/environment/missions.ts';
import { StreakDefinitionSchema } from '@engage/contracts/environment/streaks.ts';
import { acceptedEvent, numberProperty, randomEnvironment, stringProperty } from '@engage/testkit';
import { describe, expect, it } from 'vitest';
import { indexRules } from '../src/domain/definitions.ts';
import { foldProgress } from '../src/domain/fold.ts';
import { missionView } from '../src/domain/mission-view.ts';
import {
  advanceEntry,
  applyEvent,
  type CountedEvent,
  calendarOccurrence,
  counts,
  enterOnRead,
  type MissionEntry,
} from '../src/domain/missions.ts';

const T0 = Date.parse('2024-06-03T10:00:00Z'); // a Monday
const iso = (ms: number) => new Date(ms).toISOString();
const ANCHOR = '2024-06-01T00:00:00.000Z';

const mission = (overrides: Record<string, unknown> = {}) =>
  MissionDefinitionSchema.parse({
    key: 'm',
    name: 'Mission',
    objectives: [{ key: 'levels', event: 'level_completed', target: 3 }],
    rewards: [{ points: 100 }],
    ...overrides,
  });

const event = (
  properties: CountedEvent['properties'] = {},
  at = T0 + 1000,
  eventKey = 'level_completed',
) => ({
  eventId: crypto.randomUUID(),
  eventKey,
  receivedAt: iso(at),
  properties,
});

const entered = (m = mission(), at = T0): MissionEntry => enterOnRead(m, ANCHOR, undefined, at).entry;

function run(m: ReturnType<typeof mission>, events: CountedEvent[], start = entered(m)) {
  let entry = start;
  const steps = [];
  for (const e of events) {
    if (!counts(m, ANCHOR, entry, e)) continue;
    const applied = applyEvent(m, entry, e);
    entry = applied.entry;
    steps.push(...applied.steps);
  }
  return { entry, steps };
}

describe('advanceEntry in place', () => {
  const distinct = mission({
    objectives: [
      { key: 'levels', event: 'level_completed', target: 10 },
      { key: 'maps', event: 'level_completed', measure: { kind: 'distinct', property: 'level' }, target: 3 },
    ],
  });
  const level = (n: number) => event({ level: numberProperty(String(n)) });

  it('says facts changed only when more than a value moved', () => {
    const entry = entered(distinct);
    expect(advanceEntry(distinct, entry, level(1))?.factsChanged).toBe(true); // first seen: both new
    expect(advanceEntry(distinct, entry, level(1))?.factsChanged).toBe(false); // a count only
    expect(advanceEntry(distinct, entry, level(2))?.factsChanged).toBe(true); // a distinct value added
    expect(advanceEntry(distinct, entry, level(3))).toMatchObject({
      factsChanged: true, // satisfied
      steps: [{ kind: 'ObjectiveSatisfied', objectiveKey: 'maps', value: 3 }],
    });
    expect(entry.objectives).toEqual({
      levels: { value: 4 },
      maps: { value: 3, seen: ['1', '2', '3'], satisfied: true },
    });
  });
});

describe('measures', () => {
  it.each<[string, Record<string, unknown>, CountedEvent['properties'][], number, boolean]>([
    ['count adds one per matching event', { measure: { kind: 'count' }, target: 3 }, [{}, {}], 2, false],
    [
      'sum adds a number property',
      { measure: { kind: 'sum', property: 'score' }, target: 100 },
      [{ score: numberProperty('40.5') }, { score: numberProperty('60') }],
      100.5,
      true,
    ],
    [
      'max keeps the largest value',
      { measure: { kind: 'max', property: 'score' }, target: 50 },
      [{ score: numberProperty('30') }, { score: numberProperty('20') }],
      30,
      false,
    ],
    [
      'distinct counts different values',
      { measure: { kind: 'distinct', property: 'map' }, target: 2 },
      [{ map: stringProperty('a') }, { map: stringProperty('a') }, { map: stringProperty('b') }],
      2,
      true,
    ],
    ['occurs is satisfied by one event', { measure: { kind: 'occurs' } }, [{}], 1, true],
    [
      'filters pick the events that count',
      { filters: [{ property: 'difficulty', op: 'in', value: ['hard', 'expert'] }], target: 2 },
      [{ difficulty: stringProperty('easy') }, { difficulty: stringProperty('hard') }, {}],
      1,
      false,
    ],
  ])('%s', (_name, objective, properties, value, satisfied) => {
    const m = mission({ objectives: [{ key: 'o', event: 'level_completed', ...objective }] });
    const { entry } = run(
      m,
      properties.map((p) => event(p)),
    );
    expect(entry.objectives.o?.value ?? 0).toBe(value);
    expect(entry.completedAt !== null).toBe(satisfied);
  });
});

describe('entering and counting', () => {
  it('counts only events accepted after the entry', () => {
    const m = mission();
    const { entry } = run(m, [event({}, T0 - 1), event({}, T0), event({}, T0 + 5)]);
    expect(entry.objectives.levels?.value).toBe(2);
  });

  it('a repeated read does not enter again', () => {
    const m = mission();
    const first = entered(m);
    expect(enterOnRead(m, ANCHOR, first, T0 + 60_000)).toEqual({
      entry: first,
      entered: false,
      changed: false,
    });
  });

  it('completes once, at the acceptance time of the event that satisfied the last objective', () => {
    const m = mission();
    const events = [event({}, T0 + 1), event({}, T0 + 2), event({}, T0 + 3), event({}, T0 + 4)];
    const { entry, steps } = run(m, events);
    expect(entry.completedAt).toBe(iso(T0 + 3));
    expect(entry.objectives.levels?.value).toBe(3);
    expect(steps.map((s) => s.kind)).toEqual(['ObjectiveSatisfied', 'MissionCompleted']);
  });

  it('a mission that requires acceptance counts nothing until accepted', () => {
    const m = mission({ optInMode: 'RequiresAcceptance' });
    const entry = entered(m);
    expect(entry.countingSince).toBeNull();
    expect(run(m, [event()], entry).entry.objectives).toEqual({});
    const accepted = { ...entry, acceptedAt: iso(T0 + 10), countingSince: iso(T0 + 10) };
    expect(run(m, [event({}, T0 + 5), event({}, T0 + 20)], accepted).entry.objectives.levels?.value).toBe(1);
  });

  it('stops counting at the deadline', () => {
    const m = mission({ availableUntilUtc: iso(T0 + 10) });
    expect(run(m, [event({}, T0 + 5), event({}, T0 + 10)]).entry.objectives.levels?.value).toBe(1);
  });

  it('a sequential mission opens its objectives one after the other', () => {
    const m = mission({
      sequential: true,
      objectives: [
        { key: 'buy', event: 'purchase_made' },
        { key: 'play', event: 'level_completed', target: 2 },
      ],
    });
    const { entry } = run(m, [
      event({}, T0 + 1),
      event({}, T0 + 2, 'purchase_made'),
      event({}, T0 + 3),
      event({}, T0 + 4),
    ]);
    expect(entry.objectives).toMatchObject({ buy: { value: 1 }, play: { value: 2 } });
    expect(entry.completedAt).toBe(iso(T0 + 4));
  });

  it.each<[string, string, number]>([
    ['daily', '2024-06-01T23:59:59Z', 1],
    ['daily', '2024-06-02T00:00:00Z', 2],
    ['daily', '2024-06-03T10:00:00Z', 3],
    ['weekly', '2024-06-02T23:59:59Z', 1], // June 1 was a Saturday: its week ends on Sunday
    ['weekly', '2024-06-03T00:00:00Z', 2],
  ])('%s occurrence at %s is %i', (repeat, at, occurrence) => {
    expect(calendarOccurrence(mission({ repeat }), ANCHOR, Date.parse(at))).toBe(occurrence);
  });

  it('a daily mission enters a new occurrence on the first read of a new day; old events do not count', () => {
    const m = mission({ repeat: 'daily' });
    const monday = entered(m);
    const tuesday = enterOnRead(m, ANCHOR, monday, T0 + 86_400_000);
    expect(tuesday.entered).toBe(true);
    expect(tuesday.entry.occurrence).toBe(monday.occurrence + 1);
    expect(counts(m, ANCHOR, monday, event({}, T0 + 86_400_000))).toBe(false);
  });

  it('afterCompletion: the read after the one that showed the completion enters the next occurrence', () => {
    const m = mission({ repeat: 'afterCompletion', objectives: [{ key: 'o', event: 'level_completed' }] });
    const done = run(m, [event()]).entry;
    const shown = enterOnRead(m, ANCHOR, done, T0 + 10);
    expect(shown).toMatchObject({ entered: false, changed: true, entry: { completionShown: true } });
    const next = enterOnRead(m, ANCHOR, shown.entry, T0 + 20);
    expect(next).toMatchObject({ entered: true, entry: { occurrence: 2, completedAt: null } });
  });
});

describe('missionView', () => {
  it('shows status, progress and the end of a daily occurrence', () => {
    const m = mission({ repeat: 'daily' });
    const { entry } = run(m, [event()]);
    const view = missionView('00000000-0000-4000-8000-000000000000', m, ANCHOR, entry, undefined);
    expect(view).toMatchObject({
      status: 'InProgress',
      occurrenceNumber: 3,
      isAccepted: false,
      availableUntilUtc: '2024-06-04T00:00:00.000Z',
      rewards: [{ kind: 'Points', pointsAmount: 100, catalogItemKey: null, catalogItemValue: null }],
    });
    expect(view.objectives[0]).toMatchObject({
      order: 1,
      isSatisfied: false,
      progress: {
        kind: 'TowardTarget',
        actual: 1,
        operator: 'GreaterThanOrEqual',
        target: 3,
        fraction: 1 / 3,
      },
    });
  });
});

describe('foldProgress', () => {
  const env = randomEnvironment();
  const rules = indexRules({
    version: 1,
    missions: MissionsSectionSchema.parse([
      {
        key: 'win',
        name: 'Win',
        objectives: [{ key: 'o', event: 'level_completed', target: 2 }],
        rewards: [{ points: 5 }],
      },
    ]).map((definition, position) => ({ definition, position, createdAt: ANCHOR })),
    collections: [],
    streaks: [
      StreakDefinitionSchema.parse({
        key: 's',
        name: 'S',
        events: [{ event: 'level_completed' }],
        milestones: [{ threshold: 1, rewards: [{ points: 1 }] }],
      }),
    ],
  });
  const accepted = (at: number): AcceptedEvent => ({
    ...acceptedEvent(env, 'p1', { occurredAt: iso(at) }),
    receivedAt: iso(at),
    timeZone: 'Europe/Berlin',
  });

  it('grants each reward once with ids derived from what earned it', () => {
    const start = { missions: { win: entered(mission(), T0) }, streaks: {} };
    const events = [accepted(T0 + 1), accepted(T0 + 2), accepted(T0 + 3)];
    const once = foldProgress(rules, start, events);
    expect(once.grants.map((g) => [g.source, g.sourceKey, g.milestoneThreshold])).toEqual([
      ['StreakMilestone', 's', 1],
      ['Mission', 'win', null],
    ]);
    expect(once.records.map((r) => r.kind)).toEqual([
      'StreakExtended',
      'StreakMilestoneReached',
      'ObjectiveSatisfied',
      'MissionCompleted',
    ]);
    // The same events folded again from the same state produce the same ids.
    expect(foldProgress(rules, start, events).grants.map((g) => g.grantId)).toEqual(
      once.grants.map((g) => g.grantId),
    );
    // Folded onto the result, nothing more is earned.
    expect(foldProgress(rules, once.state, [accepted(T0 + 4)]).grants).toEqual([]);
  });

  it('changes nothing for a player without entries whose events qualify for no streak', () => {
    const other = { ...accepted(T0), eventKey: 'purchase_made' };
    expect(foldProgress(rules, { missions: {}, streaks: {} }, [other]).changed).toBe(false);
  });
});
