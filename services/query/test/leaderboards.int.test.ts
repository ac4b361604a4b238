import { type AcceptedEvent, type EnvironmentContext, LeaderboardViewSchema } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { createRedis } from '@engage/redis';
import {
  fetchAsGateway,
  internalHeaders,
  randomEnvironment,
  schemaPool,
  serviceEnv,
  spawnService,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import {
  acceptedEvent,
  connectEventsProducer,
  eventually,
  numberProperty,
  stringProperty,
} from '@engage/testkit/events.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loseRedisKeys } from './support.ts';

const pool = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
const prefix = uniqueTopicPrefix();
let query: Awaited<ReturnType<typeof spawnService>>;
let producer: Awaited<ReturnType<typeof connectEventsProducer>>;

beforeAll(async () => {
  await createCatalogTopics(stackConfig().brokers, prefix);
  producer = await connectEventsProducer(prefix);
  query = await spawnService(
    stackConfig().repoRoot,
    'query',
    serviceEnv(prefix, { MIRROR_SWEEP_INTERVAL_MS: '500' }),
  );
});
afterAll(async () => {
  await producer?.close();
  await query?.stop();
  await loseRedisKeys(redis, prefix);
  await pool.end();
  await redis.quit();
});

const BOARDS = [
  {
    key: 'points',
    name: { defaultLocale: 'en', translations: { en: 'Points', fr: 'Points (fr)' } },
    scoreSource: { type: 'Event', event: 'scored', property: 'points' },
    aggregation: 'Sum',
    topSize: 20,
  },
  {
    key: 'capped',
    name: 'Capped',
    // No honest event scores above 10 here: p6's 12.5 does not count.
    scoreSource: { type: 'Event', event: 'scored', property: 'points', maxValue: 10 },
    decimals: 1,
  },
  {
    key: 'fastest',
    name: 'Fastest lap',
    scoreSource: { type: 'Event', event: 'lap', property: 'seconds' },
    aggregation: 'Min',
    rankOrder: 'LowestFirst',
    decimals: 2,
  },
  {
    key: 'league',
    name: 'League',
    scoreSource: { type: 'Event', event: 'scored' },
    aggregation: 'Count',
    league: {
      groupSize: 3,
      tiers: [
        { key: 'bronze', promote: 1 },
        { key: 'silver', promote: 1, relegate: 1 },
      ],
    },
  },
  {
    key: 'teams',
    name: 'Teams',
    scoreSource: { type: 'Event', event: 'scored', property: 'points' },
    team: { property: 'team' },
  },
  {
    key: 'off',
    name: 'Off',
    active: false,
    scoreSource: { type: 'Event', event: 'scored' },
    aggregation: 'Count',
  },
  {
    key: 'vip',
    name: 'VIP',
    scoreSource: { type: 'Event', event: 'scored' },
    aggregation: 'Count',
    eligibility: { attribute: 'vip', op: 'eq', value: true },
  },
  {
    key: 'past',
    name: 'Past',
    scoreSource: { type: 'Event', event: 'scored' },
    aggregation: 'Count',
    season: { endsAtUtc: '2020-01-01T00:00:00Z' },
  },
];

async function define(env: EnvironmentContext, boards: unknown[] = BOARDS) {
  const res = await fetchAsGateway(
    `${query.url}/internal/v1/environments/${env.environmentId}/definition/leaderboards`,
    { method: 'PUT', headers: internalHeaders(env), body: boards },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { changes: { key: string; change: string }[] };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests walk arbitrary JSON answers
type Json = any;

async function read(env: EnvironmentContext, playerId: string, key: string, query_ = '', attributes = {}) {
  const res = await fetchAsGateway(`${query.url}/v1/leaderboards/${key}?PlayerId=${playerId}${query_}`, {
    headers: internalHeaders(env, { id: playerId, attributes }),
  });
  const body = (await res.json()) as Json;
  // The route writes the view without re-validating it: every answer must already be exactly the
  // contract's shape (parsing strips unknown fields, so any extra field, an id above all, differs).
  if (res.status === 200) expect(LeaderboardViewSchema.parse(body)).toEqual(body);
  return { status: res.status, body };
}

const scored = (env: EnvironmentContext, player: string, points: string, team?: string): AcceptedEvent =>
  acceptedEvent(env, player, {
    eventKey: 'scored',
    properties: {
      points: numberProperty(points),
      displayName: stringProperty(`Name ${player}`),
      ...(team ? { team: stringProperty(team) } : {}),
    },
  });

describe('leaderboards', () => {
  it('applies definitions, ranks players, teams and league groups, and hides what it must', async () => {
    const env = randomEnvironment();
    expect((await define(env)).changes.map((c) => c.change)).toEqual(Array(BOARDS.length).fill('created'));
    expect((await define(env)).changes.every((c) => c.change === 'unchanged')).toBe(true);

    // p0 scores 10, p1..p5 score 5 each (p1 first: ties go to who reached the score first), p6 scores 20.
    await producer.send([scored(env, 'p0', '10', 'red')]);
    for (let i = 1; i <= 5; i++) await producer.send([scored(env, `p${i}`, '5', i % 2 ? 'red' : 'blue')]);
    await producer.send([scored(env, 'p6', '12.5', 'blue'), scored(env, 'p6', '7.5')]);
    await producer.send([
      acceptedEvent(env, 'p1', { eventKey: 'lap', properties: { seconds: numberProperty('61.25') } }),
      acceptedEvent(env, 'p1', { eventKey: 'lap', properties: { seconds: numberProperty('59.5') } }),
      acceptedEvent(env, 'p2', { eventKey: 'lap', properties: { seconds: numberProperty('60') } }),
    ]);

    const view = await eventually('the points board', async () => {
      const r = await read(env, 'p3', 'points', '&Top=3&Around=1&PlayerIds=p6&PlayerIds=p5&LanguageCode=fr');
      // Scores and display names reach Redis after the commit: wait until both are there.
      const mirrored = r.body.leaderboard?.participants === 7 && r.body.leaderboard?.me?.displayName !== null;
      return mirrored ? r.body : undefined;
    });
    expect(view.leaderboard).toMatchObject({
      name: 'Points (fr)',
      me: { rank: 5, score: 5, displayName: 'Name p3' },
    });
    // Ties within one tick of the period (see docs/leaderboards.md) fall back to the player id.
    expect(view.top).toEqual([
      { rank: 1, displayName: 'Name p6', score: 20, isMe: false },
      { rank: 2, displayName: 'Name p0', score: 10, isMe: false },
      { rank: 3, displayName: expect.stringMatching(/^Name p[1-5]$/), score: 5, isMe: false },
    ]);
    expect(view.around.map((e: { rank: number; isMe: boolean }) => [e.rank, e.isMe])).toEqual([
      [4, false],
      [5, true],
      [6, false],
    ]);
    expect(view.named).toHaveLength(3);
    expect(view.named[0]).toEqual({
      rank: 1,
      displayName: 'Name p6',
      score: 20,
      isMe: false,
      playerId: 'p6',
    });
    // p3 and p5 are tied within one tick: named ranks them as the board does (p5 above the caller).
    expect(view.named.slice(1).map((e: { playerId: string; rank: number }) => [e.playerId, e.rank])).toEqual([
      ['p5', 2],
      ['p3', 3],
    ]);
    expect(JSON.stringify(view.top)).not.toContain('"p');

    // PlayerIds without Around asks the caller's rank alone (their score and name come with the named
    // players', no script): the same answer, and it too finds lost boards (the marker) and rebuilds them.
    const friendsOf = async () => (await read(env, 'p3', 'points', '&Top=0&PlayerIds=p6&PlayerIds=p5')).body;
    for (const friends of [await friendsOf(), await loseRedisKeys(redis, prefix).then(friendsOf)]) {
      expect(friends.leaderboard.me).toEqual({ rank: 5, score: 5, displayName: 'Name p3' });
      expect(friends.named).toEqual(view.named);
      expect(friends.around).toEqual([]);
    }

    const capped = (await read(env, 'p6', 'capped', '&Top=2')).body;
    expect(capped.top.map((e: { score: number }) => e.score)).toEqual([10, 7.5]);
    expect(capped.leaderboard.me).toEqual({ rank: 2, score: 7.5, displayName: 'Name p6' });
    const metrics = await (await fetch(query.metricsUrl)).text();
    expect(
      Number(/^query_score_events_out_of_bounds_total (\d+)/m.exec(metrics)?.[1]),
    ).toBeGreaterThanOrEqual(1);

    const laps = await eventually('the lap board', async () => {
      const r = await read(env, 'p2', 'fastest', '&Around=2');
      return r.body.leaderboard?.participants === 2 ? r.body : undefined;
    });
    expect(laps.top.map((e: { score: number }) => e.score)).toEqual([59.5, 60]);

    const teams = await read(env, 'p1', 'teams');
    // red: p0, p1, p3, p5; blue: p2, p4, p6 (whose second event names no team and still counts for blue).
    expect(teams.body.top).toEqual([
      { rank: 1, displayName: 'blue', score: 30, isMe: false },
      { rank: 2, displayName: 'red', score: 25, isMe: true },
    ]);
    expect(teams.body.leaderboard.team).toEqual({ teamKey: 'red', rank: 2, score: 25 });
    expect(teams.body.leaderboard.me).toEqual({ rank: null, score: 5, displayName: null });

    // League: groups of 3 filled in order of arrival (the consumer's order): 3 + 3 + 1 players.
    const groups = new Map<number, number>();
    for (let i = 0; i <= 6; i++) {
      const league = (await read(env, `p${i}`, 'league', '&Top=5')).body.leaderboard;
      expect(league.league).toMatchObject({ tierKey: 'bronze', groupSize: 3 });
      groups.set(league.league.group, league.participants);
    }
    expect([...groups.values()].sort()).toEqual([1, 3, 3]);

    for (const [key, attributes] of [
      ['nope', {}],
      ['off', {}],
      ['past', {}],
      ['vip', { vip: false }],
    ] as const) {
      const r = await read(env, 'p1', key, '', attributes);
      expect([key, r.status, r.body.code]).toEqual([key, 404, 'leaderboard.not_found']);
    }
    expect((await read(env, 'p1', 'vip', '', { vip: true })).status).toBe(200);
    expect((await read(env, 'p1', 'points', '&Top=21')).body.code).toBe('validation.top');

    // Redis loses the boards under load; the rebuild gives back exactly the same standings.
    const more = Array.from({ length: 30 }, (_, i) => scored(env, `q${i % 10}`, String(i + 1)));
    const sending = producer.send(more);
    await loseRedisKeys(redis, prefix);
    await sending;
    const expected = new Map<string, number>([
      ['p0', 10],
      ['p1', 5],
      ['p2', 5],
      ['p3', 5],
      ['p4', 5],
      ['p5', 5],
      ['p6', 20],
    ]);
    more.forEach((e, i) => {
      expected.set(e.playerId, (expected.get(e.playerId) ?? 0) + i + 1);
    });
    const full = await eventually('the rebuilt board with every score', async () => {
      const r = await read(env, 'p0', 'points', '&Top=20');
      return r.body.leaderboard?.participants === 17 && r.body.top.length === 17 ? r.body : undefined;
    });
    const scores = [...expected.values()].sort((a, b) => b - a);
    expect(full.top.map((e: { score: number }) => e.score)).toEqual(scores);
  });

  it('settles a sandbox board on demand: final ranks frozen, league movements applied to the next period', async () => {
    const env = randomEnvironment();
    await define(env);
    await producer.send(
      ['a', 'b', 'c', 'd'].flatMap((p, i) => Array.from({ length: 4 - i }, () => scored(env, p, '1'))),
    );
    await eventually('the league to count every event', async () => {
      const r = await read(env, 'a', 'points');
      return r.body.leaderboard?.participants === 4 ? true : undefined;
    });

    const settle = async (key: string) => {
      const res = await fetchAsGateway(
        `${query.url}/internal/v1/environments/${env.environmentId}/leaderboards/${key}/settle`,
        {
          method: 'POST',
          headers: internalHeaders(env),
        },
      );
      return { status: res.status, body: (await res.json()) as Json };
    };
    const settledLeague = await settle('league');
    expect(settledLeague.body).toMatchObject({ participants: 4 });
    expect((await settle('points')).body.participants).toBe(4);

    // Groups of 3 in arrival order: one group of 3 and one of 1. Each group's best is promoted to
    // silver; bronze, the lowest tier, relegates nobody.
    const outcomes = new Map<string, string>();
    for (const p of ['a', 'b', 'c', 'd']) {
      const previous = (await read(env, p, 'league', '&Previous=true')).body;
      expect(previous.isSettled).toBe(true);
      const mine = previous.top.find((e: { isMe: boolean }) => e.isMe);
      expect(previous.leaderboard.league.movement).toBe(mine.movement);
      expect(previous.top.map((e: { rank: number }) => e.rank)).toEqual(
        Array.from({ length: previous.leaderboard.participants }, (_, i) => i + 1),
      );
      outcomes.set(p, `${previous.leaderboard.participants}:${mine.rank}:${mine.movement}`);
    }
    expect(outcomes.get('a')).toMatch(/^[13]:1:Promoted$/);
    expect([...outcomes.values()].filter((o) => o.endsWith('Promoted'))).toHaveLength(2);
    expect([...outcomes.values()].filter((o) => o.endsWith('Stayed'))).toHaveLength(2);
    const points = await read(env, 'c', 'points', '&Previous=true&Around=1');
    expect(points.body.leaderboard.me).toMatchObject({ rank: 3, score: 2 });
    expect(points.body.around.map((e: { rank: number }) => e.rank)).toEqual([2, 3, 4]);

    // The live period is empty again; a's next period is in silver.
    expect((await read(env, 'a', 'points')).body.leaderboard.participants).toBe(0);
    await producer.send([scored(env, 'a', '1')]);
    const next = await eventually('a to join the silver tier', async () => {
      const r = await read(env, 'a', 'league');
      return r.body.leaderboard?.league?.group === 0 ? r.body : undefined;
    });
    expect(next.leaderboard.league).toMatchObject({ tierKey: 'silver', tierIndex: 1 });

    // Settled once: the results and the analysts' records exist once per row.
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM board_results WHERE environment_id = $1 AND board_key = 'league'`,
      [env.environmentId],
    );
    expect(rows[0]?.n).toBe(4);
    expect((await settle('points')).body.participants).toBe(1);
  });
});
