import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { createLogger } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { injectAsGateway, internalHeaders, randomEnvironment, testVerifier } from '@engage/testkit';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { diffBoards } from '../src/domain/board-changes.ts';

// Neither client ever connects: every answer here is decided before the board is read.
const pool = createPool({ url: 'postgres://nobody@127.0.0.1:1/none', schema: 'query' });
const redis = new Redis({ lazyConnect: true });
afterAll(async () => {
  redis.disconnect();
  await pool.end();
});

const define = (over: Record<string, unknown>) =>
  LeaderboardDefinitionSchema.parse({
    name: 'Board',
    scoreSource: { type: 'Event', event: 'scored' },
    aggregation: 'Count',
    ...over,
  });
const BOARDS = [
  define({ key: 'small', topSize: 5 }),
  define({ key: 'off', active: false }),
  define({ key: 'later', season: { startsAtUtc: '2999-01-01T00:00:00Z' } }),
  define({ key: 'vip', eligibility: { attribute: 'vip', op: 'eq', value: true }, topSize: 5 }),
];
const definitions = {
  boards: async () => BOARDS,
  board: async (_env: string, key: string) => BOARDS.find((b) => b.key === key),
  forget: () => {},
};
const app = buildApp({
  log: createLogger('query-test', 'silent'),
  pool,
  redis,
  definitions,
  verifier: testVerifier(),
});
const env = randomEnvironment();
const read = (key: string, query: string, attributes = {}) =>
  injectAsGateway(app, {
    method: 'GET',
    url: `/v1/leaderboards/${key}?PlayerId=me&${query}`,
    headers: internalHeaders(env, { id: 'me', attributes }),
  });

describe('GET /v1/leaderboards/{leaderboardKey} before the board is read', () => {
  it('answers one 404 for unknown, switched-off, out-of-season and hidden boards', async () => {
    for (const key of ['unknown', 'off', 'later', 'vip']) {
      const res = await read(key, 'Top=1');
      expect([key, res.statusCode, res.json().code]).toEqual([key, 404, 'leaderboard.not_found']);
    }
  });

  it('refuses a Top above the board top size with validation.top', async () => {
    const res = await read('small', 'Top=6');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation.top', instance: '/v1/leaderboards/small' });
    expect((await read('vip', 'Top=6', { vip: true })).json().code).toBe('validation.top');
  });

  it("lists the top size rule with the query's other broken rules, in the query's field order", async () => {
    const codes = async (key: string, attributes = {}) =>
      (await read(key, 'Around=26&Top=6', attributes))
        .json()
        .errors.map((e: { code: string; meta: { reason: string } }) => [e.code, e.meta.reason]);
    expect(await codes('small')).toEqual([
      ['validation.top', 'too_big'],
      ['validation.around', 'too_big'],
    ]);
    // A board the caller cannot see tells nothing of its top size: the query's own rules alone.
    expect(await codes('vip')).toEqual([['validation.around', 'too_big']]);
    expect(await codes('unknown')).toEqual([['validation.around', 'too_big']]);
  });
});

describe('applying the leaderboards section', () => {
  it('names what is created, updated (with the fields), unchanged and removed', () => {
    const before = [define({ key: 'a' }), define({ key: 'b' }), define({ key: 'c' })];
    const after = [
      define({ key: 'a' }),
      define({ key: 'b', topSize: 7, isLocked: true }),
      define({ key: 'd' }),
    ];
    expect(diffBoards(before, after)).toEqual([
      { section: 'leaderboards', key: 'a', change: 'unchanged', fields: [] },
      { section: 'leaderboards', key: 'b', change: 'updated', fields: ['topSize', 'isLocked'] },
      { section: 'leaderboards', key: 'd', change: 'created', fields: [] },
      { section: 'leaderboards', key: 'c', change: 'removed', fields: [] },
    ]);
  });

  it('refuses a board without the property its aggregation needs, and a league team board', () => {
    const sum = LeaderboardDefinitionSchema.safeParse({
      key: 'x',
      name: 'X',
      scoreSource: { type: 'Event', event: 'scored' },
      aggregation: 'Sum',
    });
    expect(sum.success).toBe(false);
    const both = LeaderboardDefinitionSchema.safeParse({
      key: 'x',
      name: 'X',
      scoreSource: { type: 'Event', event: 'scored' },
      aggregation: 'Count',
      league: { groupSize: 5, tiers: [{ key: 't' }] },
      team: { property: 'team' },
    });
    expect(both.success).toBe(false);
  });
});
