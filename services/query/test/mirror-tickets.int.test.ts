import type { AcceptedEvent, EnvironmentContext } from '@engage/contracts';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { createLogger } from '@engage/kit';
import { withTransaction } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import {
  acceptedEvent,
  eventually,
  numberProperty,
  randomEnvironment,
  schemaPool,
  stackConfig,
  stringProperty,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { applyAcceptedEvents, mirrorAppliedEvents } from '../src/application/scoring/apply-events.ts';
import type { ScoredBatch } from '../src/application/scoring/score-events.ts';
import { startMirrorSweeper } from '../src/application/scoring/sweeper.ts';
import { DefinitionCache, replaceDefinitions } from '../src/store/definitions.ts';
import { boardsMarkerKey, periodBoardKey, teamBoardKey } from '../src/store/redis/keys.ts';
import { consumedRecords, loseRedisKeys, liveBoard as readLiveBoard } from './support.ts';

// The mirror after the commit, and the sweeper that finishes it when the process died in between:
// each consumer transaction opens one ticket listing the rows it changed; Redis receives them in one
// variadic ZADD per sorted set, and the ticket is closed.
const pool = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
const prefix = uniqueTopicPrefix();
afterAll(async () => {
  await loseRedisKeys(redis, prefix);
  await pool.end();
  await redis.quit();
});

const BOARDS = [
  LeaderboardDefinitionSchema.parse({
    key: 'points',
    name: 'Points',
    scoreSource: { type: 'Event', event: 'scored', property: 'points' },
    aggregation: 'Sum',
  }),
  LeaderboardDefinitionSchema.parse({
    key: 'teams',
    name: 'Teams',
    scoreSource: { type: 'Event', event: 'scored', property: 'points' },
    aggregation: 'Sum',
    team: { property: 'team' },
  }),
];

const deps = {
  pool,
  redis,
  keyPrefix: prefix,
  log: createLogger('mirror-tickets-test', 'silent'),
  definitions: new DefinitionCache(pool, 60_000),
};

async function environmentWithBoards(): Promise<EnvironmentContext> {
  const env = randomEnvironment();
  await withTransaction(pool, (client) => replaceDefinitions(client, env.environmentId, BOARDS));
  // The live boards count as complete: only the mirror and the sweeper can bring these rows.
  await redis.set(boardsMarkerKey(prefix, env.environmentId), 'test');
  return env;
}

const scored = (env: EnvironmentContext, playerId: string, points: number, team: string) =>
  acceptedEvent(env, playerId, {
    eventKey: 'scored',
    properties: { points: numberProperty(String(points)), team: stringProperty(team) },
  });

/** Applies events in one committed transaction, as the consumer does; returns what it scored. */
function commit(events: AcceptedEvent[]): Promise<ScoredBatch> {
  const records = consumedRecords(events);
  return withTransaction(pool, (client) =>
    applyAcceptedEvents({ client, records, topic: 't', partitions: [0] }),
  );
}

const liveBoard = (key: string) => readLiveBoard(redis, key);

async function openTickets(environmentId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM board_mirror_tickets WHERE $1 = ANY(environment_ids)',
    [environmentId],
  );
  return rows[0]!.n;
}

describe('mirror tickets', () => {
  it('mirrors a committed batch after the commit, grouped per sorted set, and closes its tickets', async () => {
    const env = await environmentWithBoards();
    const scoredBatch = await commit([
      scored(env, 'ann', 5, 'red'),
      scored(env, 'bob', 7, 'blue'),
      scored(env, 'ann', 4, 'red'),
      scored(env, 'cat', 2, 'red'),
    ]);
    // One ticket per board period scored into: the plain board's and the team board's.
    expect(await openTickets(env.environmentId)).toBe(2);
    await mirrorAppliedEvents(deps, scoredBatch);
    expect(await openTickets(env.environmentId)).toBe(0);
    expect(await liveBoard(periodBoardKey(prefix, env.environmentId, 'points', 0))).toEqual({
      ann: 9,
      bob: 7,
      cat: 2,
    });
    expect(await liveBoard(teamBoardKey(prefix, env.environmentId, 'teams', 0))).toEqual({
      red: 11,
      blue: 7,
    });
  });

  it('leaves the ticket of a process that died before mirroring to the sweeper, which mirrors what Postgres holds now', async () => {
    const env = await environmentWithBoards();
    const live = await environmentWithBoards();
    // Died after the commit: nothing mirrored, the tickets stay open.
    await commit([scored(env, 'ann', 3, 'red'), scored(env, 'bob', 1, 'blue')]);
    await commit([scored(env, 'ann', 10, 'red')]);
    // A period settled meanwhile leaves Redis: its ticket is closed without bringing it back.
    await commit([scored(live, 'dan', 6, 'red')]);
    await pool.query(
      `UPDATE board_periods SET state = 'settled', settled_at = now() WHERE environment_id = $1`,
      [live.environmentId],
    );
    expect(await openTickets(env.environmentId)).toBe(4);
    expect(await liveBoard(periodBoardKey(prefix, env.environmentId, 'points', 0))).toEqual({});

    const sweeper = startMirrorSweeper(deps, 200);
    try {
      await eventually(
        'the sweeper to close the dead process tickets',
        async () =>
          (await openTickets(env.environmentId)) + (await openTickets(live.environmentId)) === 0
            ? true
            : undefined,
        { timeoutMs: 20_000 },
      );
    } finally {
      await sweeper.stop();
    }
    expect(await liveBoard(periodBoardKey(prefix, env.environmentId, 'points', 0))).toEqual({
      ann: 13,
      bob: 1,
    });
    expect(await liveBoard(teamBoardKey(prefix, env.environmentId, 'teams', 0))).toEqual({
      red: 13,
      blue: 1,
    });
    expect(await redis.exists(periodBoardKey(prefix, live.environmentId, 'points', 0))).toBe(0);
  });
});
