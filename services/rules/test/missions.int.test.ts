import {
  type AcceptedEvent,
  type MissionCollectionSchema,
  type ProblemDocument,
  topics,
} from '@engage/contracts';
import { randomEnvironment, type ServiceProcess, schemaPool } from '@engage/testkit';
import { acceptedEvent, connectEventsProducer, eventually } from '@engage/testkit/events.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  applySection,
  freshTopics,
  type Mission,
  postAs,
  readTopic,
  spawnRules,
  waitUntilConsumed,
} from './support.ts';

type MissionCollection = z.infer<typeof MissionCollectionSchema>;

const pool = schemaPool('rules');
let prefix: string;
let rules: ServiceProcess;
let produced = 0;

beforeAll(async () => {
  prefix = await freshTopics();
  rules = await spawnRules(prefix);
});
afterAll(async () => {
  await rules?.stop();
  await pool.end();
});

async function send(events: AcceptedEvent[]) {
  const producer = await connectEventsProducer(prefix);
  await producer.send(events);
  await producer.close();
  produced += events.length;
  await waitUntilConsumed(pool, prefix, produced);
}

const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const level = (env: ReturnType<typeof randomEnvironment>, playerId: string, at = Date.now()) => ({
  ...acceptedEvent(env, playerId),
  receivedAt: iso(at),
  occurredAt: iso(at),
});

const MISSIONS = [
  {
    key: 'three-levels',
    name: { defaultLocale: 'en', translations: { en: 'Three levels', fr: 'Trois niveaux' } },
    objectives: [{ key: 'levels', event: 'level_completed', target: 3 }],
    rewards: [{ points: 100 }, { catalogItem: 'gem', value: 2 }],
  },
  {
    key: 'only-in-collection',
    name: 'Hidden from the feed',
    listed: false,
    objectives: [{ key: 'one', event: 'level_completed', measure: { kind: 'occurs' } }],
  },
  {
    key: 'vip-only',
    name: 'VIP',
    eligibility: { attribute: 'tier', op: 'eq', value: 'vip' },
    objectives: [{ key: 'one', event: 'level_completed' }],
  },
  { key: 'switched-off', name: 'Off', active: false, objectives: [{ key: 'o', event: 'level_completed' }] },
  {
    key: 'past',
    name: 'Past',
    availableUntilUtc: iso(Date.now() - hour),
    objectives: [{ key: 'o', event: 'level_completed' }],
  },
  {
    key: 'opt-in',
    name: 'Opt in',
    optInMode: 'RequiresAcceptance',
    objectives: [{ key: 'o', event: 'level_completed', target: 2 }],
  },
];

describe('missions through the rules process', () => {
  it('applies the sections with a dry run, a diff and a read back', async () => {
    const env = randomEnvironment();
    const dry = await applySection(rules.url, env, 'missions', MISSIONS, true);
    expect(dry.status).toBe(200);
    expect(dry.body.changes?.map((c) => c.change)).toEqual(Array(MISSIONS.length).fill('created'));
    expect((await applySection(rules.url, env, 'missions', MISSIONS)).status).toBe(200);
    const renamed = [{ ...MISSIONS[0], name: 'Renamed' }, ...MISSIONS.slice(2)];
    const second = await applySection(rules.url, env, 'missions', renamed);
    expect(second.body.changes).toEqual(
      expect.arrayContaining([
        { section: 'missions', key: 'three-levels', change: 'updated', fields: ['name'] },
        { section: 'missions', key: 'vip-only', change: 'updated', fields: ['position'] },
        { section: 'missions', key: 'only-in-collection', change: 'removed', fields: [] },
      ]),
    );
    const invalid = await applySection(rules.url, env, 'missions', [{ key: 'x', name: 'X', objectives: [] }]);
    expect(invalid.status).toBe(400);
  });

  it('enters on read, counts later events once, completes and grants the reward once', async () => {
    const env = randomEnvironment();
    await applySection(rules.url, env, 'missions', MISSIONS);
    await applySection(rules.url, env, 'missionCollections', [
      { key: 'season', name: 'Season', missions: ['opt-in', 'only-in-collection', 'three-levels', 'past'] },
      { key: 'closed', name: 'Closed', active: false, missions: ['three-levels'] },
    ]);
    const player = { id: 'p-1' };
    const url = `${rules.url}/v1/missions`;

    // An event accepted before the player was entered never counts.
    await send([level(env, player.id, Date.now() - 1000)]);
    const feed = await postAs<Mission[]>(url, env, player, { languageCode: 'fr' });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('cache-control')).toBe('no-store');
    expect(feed.body.map((m) => m.missionKey)).toEqual(['three-levels', 'opt-in']);
    expect(feed.body[0]).toMatchObject({
      name: 'Trois niveaux',
      status: 'InProgress',
      isAccepted: false,
      occurrenceNumber: 1,
      completedAtUtc: null,
      rewards: [
        { kind: 'Points', pointsAmount: 100 },
        { kind: 'CatalogItem', catalogItemKey: 'gem', catalogItemValue: 2 },
      ],
    });
    const startedAt = feed.body[0]?.startedAtUtc;
    expect(startedAt).not.toBeNull();
    // A repeated read does not enter again.
    expect((await postAs(`${url}/three-levels`, env, player)).body.startedAtUtc).toBe(startedAt);

    // One player's events in order; another player's events do not touch this one.
    await send([level(env, player.id), level(env, 'someone-else'), level(env, player.id)]);
    const two = (await postAs(`${url}/three-levels`, env, player)).body;
    expect(two.objectives[0]).toMatchObject({
      isSatisfied: false,
      progress: { kind: 'TowardTarget', actual: 2, target: 3, operator: 'GreaterThanOrEqual' },
    });
    expect(two.objectives[0]?.progress.fraction).toBeCloseTo(2 / 3);

    const completing = level(env, player.id);
    await send([completing, level(env, player.id)]);
    const done = (await postAs(`${url}/three-levels`, env, player)).body;
    expect(done).toMatchObject({ status: 'Completed', completedAtUtc: completing.receivedAt });
    expect(done.objectives[0]).toMatchObject({ isSatisfied: true, progress: { actual: 3, fraction: 1 } });

    const grants = await eventually('the mission grant on the rewards topic', async () => {
      const found = (await readTopic(prefix, topics.rewardsGranted)).filter(
        (g) => g.environmentId === env.environmentId,
      );
      return found.length > 0 ? found : undefined;
    });
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      playerId: 'p-1',
      source: 'Mission',
      sourceKey: 'three-levels',
      occurrenceNumber: 1,
      rewards: [
        { kind: 'Points', pointsAmount: 100 },
        { kind: 'CatalogItem', catalogItemKey: 'gem', catalogItemValue: 2 },
      ],
    });

    const progress = (await readTopic(prefix, topics.rulesProgress)).filter(
      (r) => r.environmentId === env.environmentId && r.playerId === 'p-1',
    );
    expect(progress.map((r) => [r.kind, r.subjectKey])).toEqual(
      expect.arrayContaining([
        ['MissionEntered', 'three-levels'],
        ['ObjectiveSatisfied', 'three-levels'],
        ['MissionCompleted', 'three-levels'],
      ]),
    );

    // Collection-only, in collection order, leaving out a mission past its deadline.
    const collection = await postAs<MissionCollection>(
      `${rules.url}/v1/mission-collections/season`,
      env,
      player,
    );
    expect(collection.status).toBe(200);
    expect(collection.body.missions.map((m) => m.missionKey)).toEqual([
      'opt-in',
      'only-in-collection',
      'three-levels',
    ]);
    const single = await postAs(`${url}/only-in-collection`, env, player);
    expect(single.body).toEqual(collection.body.missions[1]);
  });

  it.each([
    ['does not exist', 'nope', {}],
    ['is switched off', 'switched-off', {}],
    ['is past its deadline', 'past', {}],
    ['is hidden from the player', 'vip-only', { tier: 'free' }],
  ])('answers one 404 when the mission %s', async (_case, key, attributes) => {
    const env = randomEnvironment();
    await applySection(rules.url, env, 'missions', MISSIONS);
    const res = await postAs(`${rules.url}/v1/missions/${key}`, env, { id: 'p', attributes });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'mission.not_found', instance: `/v1/missions/${key}` });
  });

  it.each([
    ['does not exist', 'nope', {}],
    ['is switched off', 'switched-off', {}],
    ['is past its deadline', 'past', {}],
    ['has not started yet', 'not-yet', {}],
    ['is hidden from the player', 'vip-only', { tier: 'free' }],
  ])('accepting answers the same 404 as reading when the mission %s', async (_case, key, attributes) => {
    const env = randomEnvironment();
    const notYet = {
      key: 'not-yet',
      name: 'Not yet',
      optInMode: 'RequiresAcceptance',
      availableFromUtc: iso(Date.now() + hour),
      objectives: [{ key: 'o', event: 'level_completed' }],
    };
    await applySection(rules.url, env, 'missions', [...MISSIONS, notYet]);
    const player = { id: 'p', attributes };
    const read = await postAs(`${rules.url}/v1/missions/${key}`, env, player);
    const accept = await postAs(`${rules.url}/v1/missions/${key}/accept`, env, player);
    expect([read.status, read.body.code]).toEqual([404, 'mission.not_found']);
    expect([accept.status, accept.body.code]).toEqual([404, 'mission.not_found']);
  });

  it('shows an eligible player the mission the others cannot see; unknown and switched-off collections 404', async () => {
    const env = randomEnvironment();
    await applySection(rules.url, env, 'missions', MISSIONS);
    await applySection(rules.url, env, 'missionCollections', [
      { key: 'closed', name: 'Closed', active: false, missions: ['three-levels'] },
    ]);
    const vip = await postAs(`${rules.url}/v1/missions/vip-only`, env, {
      id: 'v',
      attributes: { tier: 'vip' },
    });
    expect(vip.status).toBe(200);
    for (const key of ['closed', 'unknown']) {
      const res = await postAs<ProblemDocument>(`${rules.url}/v1/mission-collections/${key}`, env, {
        id: 'v',
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('mission_collection.not_found');
    }
  });

  it('accepting: not_locked_in before a read, then counts from the acceptance; window_closed after the deadline', async () => {
    const env = randomEnvironment();
    await applySection(rules.url, env, 'missions', MISSIONS);
    const player = { id: 'acceptor' };
    const accept = `${rules.url}/v1/missions/opt-in/accept`;

    const early = await postAs(accept, env, player);
    expect(early.status).toBe(404);
    expect(early.body.code).toBe('mission.not_locked_in');
    expect((await postAs(`${rules.url}/v1/missions/nope/accept`, env, player)).body.code).toBe(
      'mission.not_found',
    );

    const shown = (await postAs(`${rules.url}/v1/missions/opt-in`, env, player)).body;
    expect(shown).toMatchObject({ status: 'Available', isAccepted: false, startedAtUtc: null });
    await send([level(env, player.id)]); // entered, not accepted: does not count
    const accepted = await postAs(accept, env, player);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'InProgress', isAccepted: true });
    const again = await postAs(accept, env, player);
    expect(again.body.acceptedAtUtc).toBe(accepted.body.acceptedAtUtc);

    await send([level(env, player.id)]);
    const after = (await postAs(`${rules.url}/v1/missions/opt-in`, env, player)).body;
    expect(after.objectives[0]?.progress.actual).toBe(1);

    const closed = MISSIONS.map((m) =>
      m.key === 'opt-in' ? { ...m, availableUntilUtc: iso(Date.now() - 1) } : m,
    );
    await applySection(rules.url, env, 'missions', closed);
    const late = await postAs(accept, env, player);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('mission.window_closed');
  });
});
