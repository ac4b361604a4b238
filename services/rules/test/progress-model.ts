import {
  type AcceptedEvent,
  type EnvironmentContext,
  type RewardGrant,
  topicName,
  topics,
} from '@engage/contracts';
import { MissionsSectionSchema } from '@engage/contracts/environment/missions.ts';
import { StreaksSectionSchema } from '@engage/contracts/environment/streaks.ts';
import type { Pool } from '@engage/postgres';
import { acceptedEvent, eventually, numberProperty } from '@engage/testkit/events.ts';
import { expect } from 'vitest';
import { indexRules } from '../src/domain/definitions.ts';
import { foldProgress, type ProgressState } from '../src/domain/fold.ts';
import { type ProgressRow, toStoredProgress } from '../src/store/progress.ts';
import { applySection, postAs, readTopic } from './support.ts';

/**
 * Missions and a streak for the fault tests, and the model they are checked against: every
 * player's stored missions and streaks must equal the pure fold of the events produced for the
 * player, each once and in produce order, and the rewards topic must carry exactly the grants
 * that fold earns (a relay may repeat a record, never invent or lose one).
 */
const MISSIONS = MissionsSectionSchema.parse([
  {
    key: 'hundred',
    name: 'A hundred events',
    objectives: [{ key: 'n', event: 'level_completed', target: 100 }],
    rewards: [{ points: 100 }],
  },
  {
    key: 'score',
    name: 'Score',
    objectives: [
      { key: 'sum', event: 'level_completed', measure: { kind: 'sum', property: 'score' }, target: 2_000 },
      {
        key: 'levels',
        event: 'level_completed',
        measure: { kind: 'distinct', property: 'level' },
        target: 8,
      },
    ],
    rewards: [{ points: 7 }],
  },
]);
const STREAKS = StreaksSectionSchema.parse([
  {
    key: 'daily',
    name: 'Daily',
    events: [{ event: 'level_completed' }],
    milestones: [
      { threshold: 2, rewards: [{ points: 1 }], repeatsAfterReset: true },
      { threshold: 4, rewards: [{ points: 2 }] },
    ],
  },
]);

const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC'];
const DAY = 86_400_000;
/**
 * A UTC midnight well before today, so every event is dated in the past and its local date (and the
 * streak it extends) does not depend on the time of day the tests run. (From `Date.now() - 40 days`
 * the late events of a run were dated in the future and counted at their acceptance instead: the
 * offsets-reset test's events then earned no reward at all when run at some hours of the day.)
 */
const START = Math.floor(Date.now() / DAY) * DAY - 45 * DAY;

export interface ProgressSnapshot {
  env: EnvironmentContext;
  entered: Map<string, ProgressState>;
}

/**
 * Defines the rules through the rules process, enters every player by reading their feed, and
 * keeps what the entries stored (before any event).
 */
export async function enterPlayers(
  rulesUrl: string,
  pool: Pool,
  env: EnvironmentContext,
  players: string[],
): Promise<ProgressSnapshot> {
  expect((await applySection(rulesUrl, env, 'missions', MISSIONS)).status).toBe(200);
  expect((await applySection(rulesUrl, env, 'streaks', STREAKS)).status).toBe(200);
  const entered = new Map<string, ProgressState>();
  for (const player of players) {
    const feed = await postAs<unknown[]>(`${rulesUrl}/v1/missions`, env, { id: player });
    expect(feed.body).toHaveLength(MISSIONS.length);
  }
  for (const [player, state] of await storedProgress(pool, env)) entered.set(player, state);
  return { env, entered };
}

/**
 * The `index`-th event of a run: a level with a score, dated on a day that moves forward with the
 * index (with some late ones), in one of a few zones.
 */
export function progressEvent(
  env: EnvironmentContext,
  playerId: string,
  index: number,
  random: () => number,
) {
  const day = Math.floor(index / 150) - (random() < 0.1 ? 1 : 0);
  const event: AcceptedEvent = acceptedEvent(env, playerId, {
    occurredAt: new Date(START + day * DAY + Math.floor(random() * DAY)).toISOString(),
    properties: {
      score: numberProperty(String(Math.floor(random() * 40))),
      level: numberProperty(String(Math.floor(random() * 12))),
    },
  });
  return { ...event, timeZone: ZONES[Math.floor(random() * ZONES.length)]! };
}

async function storedProgress(pool: Pool, env: EnvironmentContext) {
  const { rows } = await pool.query<ProgressRow>(
    `SELECT c.environment_id, c.player_id, c.revision, c.counters, p.missions, p.streaks
     FROM player_counters c LEFT JOIN player_progress p USING (environment_id, player_id)
     WHERE c.environment_id = $1`,
    [env.environmentId],
  );
  return new Map(
    rows.map((r) => {
      const { missions, streaks } = toStoredProgress(r).progress;
      return [r.player_id, { missions, streaks }];
    }),
  );
}

/** Asserts the stored progress and the published grants equal the model fed each event once. */
export async function expectProgressExactlyOnce(
  pool: Pool,
  prefix: string,
  snapshot: ProgressSnapshot,
  produced: AcceptedEvent[],
): Promise<void> {
  const rules = indexRules({
    version: 1,
    missions: MISSIONS.map((definition, position) => ({
      definition,
      position,
      createdAt: new Date(0).toISOString(),
    })),
    collections: [],
    streaks: STREAKS,
  });
  const expected = new Map<string, ProgressState>();
  const grants = new Set<string>();
  const byPlayer = Map.groupBy(produced, (e) => e.playerId);
  for (const [player, events] of byPlayer) {
    const start = snapshot.entered.get(player) ?? { missions: {}, streaks: {} };
    const folded = foldProgress(rules, start, events);
    expected.set(player, folded.state);
    for (const grant of folded.grants) grants.add(grant.grantId);
  }
  expect(await storedProgress(pool, snapshot.env)).toEqual(expected);
  expect(grants.size).toBeGreaterThan(0);
  const rewardsTopic = topicName(topics.rewardsGranted, prefix);
  await eventually('the outbox relay to publish every grant', async () => {
    const { rows } = await pool.query('SELECT 1 FROM outbox WHERE topic = $1 LIMIT 1', [rewardsTopic]);
    return rows.length === 0 ? true : undefined;
  });
  const published = (await readTopic<RewardGrant>(prefix, topics.rewardsGranted))
    .filter((g) => g.environmentId === snapshot.env.environmentId)
    .map((g) => g.grantId);
  expect(new Set(published)).toEqual(grants);
}
