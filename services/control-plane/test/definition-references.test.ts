import { type EnvironmentFileInput, EnvironmentFileSchema } from '@engage/contracts/environment-file.ts';
import { describe, expect, it } from 'vitest';
import { checkReferences, closestNames, type KnownNames } from '../src/domain/definition-references.ts';

const name = 'Shown';
const events: EnvironmentFileInput['events'] = [
  { key: 'level_completed', properties: { level: { type: 'number' }, score: { type: 'number' } } },
  { key: 'match_won', properties: { team: { type: 'string' } } },
];

function check(file: EnvironmentFileInput, known: Partial<KnownNames> = {}) {
  const parsed = EnvironmentFileSchema.parse({ events, ...file });
  const declared = new Map(
    (parsed.events ?? []).map((e) => [e.key, new Set(Object.keys(e.properties))] as const),
  );
  return checkReferences(parsed, { declared, discovered: new Map(), missions: new Set(), ...known });
}

const mission = (objective: Record<string, unknown>) => ({
  key: 'm',
  name,
  objectives: [{ key: 'o', event: 'level_completed', ...objective }],
});

describe('references of an environment file', () => {
  it('accepts a file whose every reference is declared', () => {
    const findings = check(
      {
        missions: [
          mission({
            filters: [{ property: 'level', op: 'gte', value: 3 }],
            measure: { kind: 'sum', property: 'score' },
          }),
        ],
        streaks: [
          {
            key: 's',
            name,
            events: [{ event: 'match_won', filters: [{ property: 'team', op: 'eq', value: 'red' }] }],
          },
        ],
        leaderboards: [
          { key: 'b', name, scoreSource: { type: 'Event', event: 'level_completed', property: 'score' } },
        ],
        missionCollections: [{ key: 'c', name, missions: ['m'] }],
      },
      { missions: new Set(['m']) },
    );
    expect(findings).toEqual({ errors: [], warnings: [] });
  });

  it("refuses a mission objective's unknown event, naming the path and the closest events", () => {
    const { errors } = check({ missions: [mission({ event: 'level_complete' })] });
    expect(errors).toEqual([
      {
        code: 'definition.unknown_event',
        message: 'no event level_complete is defined',
        meta: { path: 'missions.0.objectives.0.event', name: 'level_complete', closest: ['level_completed'] },
      },
    ]);
  });

  it("refuses a mission filter's and a measure's unknown property", () => {
    const { errors } = check({
      missions: [
        mission({
          filters: [{ property: 'levle', op: 'eq', value: 1 }],
          measure: { kind: 'max', property: 'scores' },
        }),
      ],
    });
    expect(errors.map((e) => [e.code, e.meta])).toEqual([
      [
        'definition.unknown_property',
        {
          path: 'missions.0.objectives.0.filters.0.property',
          name: 'levle',
          event: 'level_completed',
          closest: ['level'],
        },
      ],
      [
        'definition.unknown_property',
        {
          path: 'missions.0.objectives.0.measure.property',
          name: 'scores',
          event: 'level_completed',
          closest: ['score'],
        },
      ],
    ]);
  });

  it("refuses a streak's unknown event and its filter's unknown property", () => {
    const { errors } = check({
      streaks: [
        {
          key: 's',
          name,
          events: [
            { event: 'login' },
            { event: 'match_won', filters: [{ property: 'tema', op: 'eq', value: 'red' }] },
          ],
        },
      ],
    });
    expect(errors.map((e) => [e.code, e.meta.path, e.meta.closest])).toEqual([
      ['definition.unknown_event', 'streaks.0.events.0.event', []],
      ['definition.unknown_property', 'streaks.0.events.1.filters.0.property', ['team']],
    ]);
  });

  it("refuses a board's unknown event, scored property and team property", () => {
    const { errors } = check({
      leaderboards: [
        { key: 'a', name, scoreSource: { type: 'Event', event: 'match_wno' }, aggregation: 'Count' },
        { key: 'b', name, scoreSource: { type: 'Event', event: 'level_completed', property: 'socre' } },
        {
          key: 'c',
          name,
          scoreSource: { type: 'Event', event: 'match_won' },
          aggregation: 'Count',
          team: { property: 'squad' },
        },
      ],
    });
    expect(errors.map((e) => [e.code, e.meta.path, e.meta.name, e.meta.closest])).toEqual([
      ['definition.unknown_event', 'leaderboards.0.scoreSource.event', 'match_wno', ['match_won']],
      ['definition.unknown_property', 'leaderboards.1.scoreSource.property', 'socre', ['score']],
      ['definition.unknown_property', 'leaderboards.2.team.property', 'squad', []],
    ]);
  });

  it("refuses a collection's unknown mission", () => {
    const { errors } = check(
      { missionCollections: [{ key: 'c', name, missions: ['first-win', 'frist-win'] }] },
      { missions: new Set(['first-win']) },
    );
    expect(errors).toEqual([
      {
        code: 'definition.unknown_mission',
        message: 'collection c names mission frist-win, which is not defined',
        meta: { path: 'missionCollections.0.missions.1', name: 'frist-win', closest: ['first-win'] },
      },
    ]);
  });

  it('accepts with a warning an event or property only discovery defined', () => {
    const findings = check(
      {
        missions: [mission({ event: 'boss_killed', measure: { kind: 'sum', property: 'damage' } })],
        leaderboards: [
          { key: 'b', name, scoreSource: { type: 'Event', event: 'level_completed', property: 'time' } },
        ],
      },
      {
        discovered: new Map([
          ['boss_killed', new Set(['damage'])],
          ['level_completed', new Set(['level', 'time'])],
        ]),
      },
    );
    expect(findings.errors).toEqual([]);
    expect(findings.warnings.map((w) => [w.code, w.meta])).toEqual([
      ['definition.undeclared_event', { path: 'missions.0.objectives.0.event', name: 'boss_killed' }],
      [
        'definition.undeclared_property',
        { path: 'missions.0.objectives.0.measure.property', name: 'damage', event: 'boss_killed' },
      ],
      [
        'definition.undeclared_property',
        { path: 'leaderboards.0.scoreSource.property', name: 'time', event: 'level_completed' },
      ],
    ]);
  });

  it('names at most three closest candidates, nearest first, and none far away', () => {
    expect(closestNames('level', ['levels', 'lever', 'bevel', 'label', 'completely_different'])).toEqual([
      'bevel',
      'levels',
      'lever',
    ]);
    expect(closestNames('x', ['completely_different'])).toEqual([]);
  });
});
