import type { AcceptedEvent, PropertyValue } from '@engage/contracts';
import { MissionsSectionSchema } from '@engage/contracts/environment/missions.ts';
import { StreakDefinitionSchema } from '@engage/contracts/environment/streaks.ts';
import {
  acceptedEvent,
  numberProperty,
  randomEnvironment,
  seededRandom,
  stringProperty,
} from '@engage/testkit';
import { describe, expect, it } from 'vitest';
import { indexRules } from '../src/domain/definitions.ts';
import {
  type FoldResult,
  foldProgress,
  foldProgressInPlace,
  type ProgressState,
} from '../src/domain/fold.ts';
import { applyEvent, counts, enterOnRead, type PlayerMissions } from '../src/domain/missions.ts';
import { encodeCounters, encodeEntries } from '../src/store/progress-codec.ts';

/**
 * The consumer folds a whole batch of a player's events at once, changing the player's state in
 * place. Whatever the batching, the outcome must be the one of folding the events
 * one by one, and each mission must end as the per-event pure functions (`counts`, `applyEvent`)
 * leave it.
 */
const T0 = Date.parse('2024-03-28T20:00:00Z');
const HOUR = 3_600_000;
const ANCHOR = '2024-03-01T00:00:00.000Z';
const iso = (ms: number) => new Date(ms).toISOString();

const MISSIONS = MissionsSectionSchema.parse([
  {
    key: 'count',
    name: 'C',
    objectives: [{ key: 'n', event: 'level_completed', target: 25 }],
    rewards: [{ points: 1 }],
  },
  {
    key: 'hard-sum',
    name: 'S',
    objectives: [
      {
        key: 'score',
        event: 'level_completed',
        filters: [{ property: 'difficulty', op: 'in', value: ['hard', 'expert'] }],
        measure: { kind: 'sum', property: 'score' },
        target: 900,
      },
    ],
    rewards: [{ points: 2 }],
  },
  {
    key: 'best',
    name: 'M',
    objectives: [
      { key: 'level', event: 'level_completed', measure: { kind: 'max', property: 'level' }, target: 9 },
    ],
    rewards: [],
  },
  {
    key: 'sequence',
    name: 'Q',
    sequential: true,
    objectives: [
      { key: 'maps', event: 'level_completed', measure: { kind: 'distinct', property: 'level' }, target: 4 },
      { key: 'buy', event: 'purchase_made', measure: { kind: 'occurs' } },
    ],
    rewards: [{ points: 3 }],
  },
  {
    key: 'daily',
    name: 'D',
    repeat: 'daily',
    objectives: [{ key: 'n', event: 'level_completed', target: 3 }],
    rewards: [{ points: 4 }],
  },
  {
    key: 'closing',
    name: 'X',
    availableUntilUtc: iso(T0 + 100 * HOUR),
    objectives: [
      { key: 'spend', event: 'purchase_made', measure: { kind: 'sum', property: 'amount' }, target: 10 },
    ],
    rewards: [{ points: 5 }],
  },
  {
    key: 'opt-in',
    name: 'O',
    optInMode: 'RequiresAcceptance',
    objectives: [{ key: 'n', event: 'level_completed', target: 2 }],
    rewards: [{ points: 6 }],
  },
]);

const rules = indexRules({
  version: 1,
  missions: MISSIONS.map((definition, position) => ({ definition, position, createdAt: ANCHOR })),
  collections: [],
  streaks: [
    StreakDefinitionSchema.parse({
      key: 'play',
      name: 'Play',
      events: [{ event: 'level_completed' }],
      milestones: [
        { threshold: 2, rewards: [{ points: 1 }], repeatsAfterReset: true },
        { threshold: 3, rewards: [{ points: 2 }] },
      ],
    }),
    StreakDefinitionSchema.parse({
      key: 'weekly-buyer',
      name: 'Buyer',
      period: 'weekly',
      eventsPerPeriod: 2,
      events: [{ event: 'purchase_made' }],
      milestones: [{ threshold: 1, rewards: [{ points: 1 }] }],
    }),
  ],
});

const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC', null];
const DIFFICULTIES = ['easy', 'hard', 'expert'];

function randomEvents(seed: number, count: number): AcceptedEvent[] {
  const random = seededRandom(seed);
  const env = randomEnvironment();
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  let at = T0;
  return Array.from({ length: count }, () => {
    // Mostly minutes apart, sometimes a day or two: daily occurrences, streak runs and resets.
    at += random() < 0.05 ? Math.floor(random() * 50 * HOUR) : Math.floor(random() * 20 * 60_000);
    const kind = random();
    const eventKey = kind < 0.7 ? 'level_completed' : kind < 0.9 ? 'purchase_made' : 'tutorial_done';
    const properties: Record<string, PropertyValue> =
      eventKey === 'level_completed'
        ? {
            level: numberProperty(String(1 + Math.floor(random() * 12))),
            score: numberProperty(String(Math.floor(random() * 200))),
            difficulty: stringProperty(pick(DIFFICULTIES)),
          }
        : eventKey === 'purchase_made'
          ? { amount: numberProperty(String(Math.round(random() * 1000) / 100)) }
          : {};
    return {
      ...acceptedEvent(env, 'p1', { occurredAt: iso(at - Math.floor(random() * 3 * HOUR)) }),
      eventKey,
      properties,
      receivedAt: iso(at),
      timeZone: pick(ZONES),
    };
  });
}

function startState(): ProgressState {
  const missions: PlayerMissions = {};
  for (const m of MISSIONS) missions[m.key] = enterOnRead(m, ANCHOR, undefined, T0).entry;
  return { missions, streaks: {} };
}

/** Folds `events` in consecutive batches of the given sizes (the last size repeats). */
function foldInBatches(events: AcceptedEvent[], sizes: number[]): FoldResult {
  let state = startState();
  const result: FoldResult = { state, changed: false, grants: [], records: [] };
  for (let i = 0, b = 0; i < events.length; b++) {
    const size = sizes[Math.min(b, sizes.length - 1)]!;
    const folded = foldProgress(rules, state, events.slice(i, i + size));
    i += size;
    state = folded.state;
    result.changed ||= folded.changed;
    result.grants.push(...folded.grants);
    result.records.push(...folded.records);
  }
  return { ...result, state };
}

describe('foldProgress over a batch', () => {
  it.each([1, 2, 3])('equals folding the events one by one (seed %i)', (seed) => {
    const events = randomEvents(seed, 600);
    const oneByOne = foldInBatches(events, [1]);
    const random = seededRandom(seed * 7);
    const sizes = Array.from({ length: 600 }, () => 1 + Math.floor(random() * 80));
    for (const batched of [foldInBatches(events, [events.length]), foldInBatches(events, sizes)]) {
      expect(batched.state).toEqual(oneByOne.state);
      expect(batched.grants).toEqual(oneByOne.grants);
      expect(batched.records).toEqual(oneByOne.records);
    }
    // The events do complete missions, reach milestones and pass the deadline of one.
    expect(new Set(oneByOne.grants.map((g) => g.sourceKey))).toEqual(
      new Set(['count', 'hard-sum', 'sequence', 'daily', 'closing', 'play', 'weekly-buyer']),
    );
  });

  it('leaves every mission as the per-event functions do', () => {
    const events = randomEvents(4, 600);
    const folded = foldProgress(rules, startState(), events).state.missions;
    for (const m of MISSIONS) {
      let entry = startState().missions[m.key]!;
      for (const e of events) if (counts(m, ANCHOR, entry, e)) entry = applyEvent(m, entry, e).entry;
      expect(folded[m.key], m.key).toEqual(entry);
    }
  });

  it('never changes the state it starts from', () => {
    const start = startState();
    const before = structuredClone(start);
    const first = foldProgress(rules, start, randomEvents(5, 300));
    const snapshot = structuredClone(first.state);
    foldProgress(rules, first.state, randomEvents(6, 300));
    expect(start).toEqual(before);
    expect(first.state).toEqual(snapshot);
  });
});

/** What the stored entries and streaks hold besides objective values (their text). */
const facts = (state: ProgressState) => encodeEntries(state.missions).json + JSON.stringify(state.streaks);

describe('foldProgressInPlace', () => {
  it.each([7, 8])(
    'changes the state into what foldProgress returns, says when more than values changed, and keeps the counters layout valid until then (seed %i)',
    (seed) => {
      const random = seededRandom(seed);
      const events = randomEvents(seed, 500);
      let expected = startState();
      const owned = startState();
      let layout = encodeEntries(owned.missions).layout;
      const seen = { factsChanged: 0, valuesOnly: 0 };
      for (let i = 0; i < events.length; ) {
        const batch = events.slice(i, i + 1 + Math.floor(random() * 12));
        i += batch.length;
        const pure = foldProgress(rules, expected, batch);
        const inPlace = foldProgressInPlace(rules, owned, batch);
        expect(owned).toEqual(pure.state);
        expect(inPlace.changed).toBe(pure.changed);
        expect(inPlace.grants).toEqual(pure.grants);
        expect(inPlace.records).toEqual(pure.records);
        // The entries and streaks are rewritten exactly when their stored text would change.
        expect(inPlace.factsChanged).toBe(facts(pure.state) !== facts(expected));
        // The narrow write reads the values through the layout of the entries as last written.
        if (inPlace.factsChanged) layout = encodeEntries(owned.missions).layout;
        expect(encodeCounters(layout)).toBe(encodeCounters(encodeEntries(owned.missions).layout));
        if (inPlace.changed) seen[inPlace.factsChanged ? 'factsChanged' : 'valuesOnly']++;
        expected = pure.state;
      }
      expect(seen.factsChanged).toBeGreaterThan(0);
      expect(seen.valuesOnly).toBeGreaterThan(0);
    },
  );
});
