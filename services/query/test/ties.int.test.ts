import { randomUUID } from 'node:crypto';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { createLogger } from '@engage/kit';
import { withTransaction } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { randomEnvironment, schemaPool, stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { rankNamed } from '../src/application/reading/view.ts';
import { scaleOf } from '../src/application/scoring/mirror.ts';
import { settleClaimedPeriod } from '../src/application/settlement/settle-period.ts';
import { settleDuePeriods } from '../src/application/settlement/settler.ts';
import { encodeRankScore } from '../src/domain/rank-score.ts';
import { replaceDefinitions } from '../src/store/definitions.ts';
import { claimCurrentPeriod } from '../src/store/periods.ts';

const pool = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
afterAll(async () => {
  await pool.end();
  await redis.quit();
});

const BOARD = LeaderboardDefinitionSchema.parse({
  key: 'ties',
  name: 'Ties',
  scoreSource: { type: 'Event', event: 'scored', property: 'points' },
  aggregation: 'Max',
  decimals: 1,
});

describe('ties', () => {
  it('settle in the order the live board and the named read showed them', async () => {
    const { environmentId } = randomEnvironment();
    const end = Date.now() - 1_000;
    const start = end - 3_600_000; // ticks of one second
    // Scores as stored (exact) and when they were reached, in ms after the start.
    const rows: [player: string, score: string, reachedAfterMs: number][] = [
      ['g', '7', 50_000],
      ['a', '5', 10_100], // a..d: the same score within one tick, reached in the order a, b, c, d
      ['b', '5', 10_200],
      ['c', '5', 10_300],
      ['d', '5', 10_400],
      ['e', '5.04', 20_000], // 5.0 at one decimal, reached later
      ['f', '5.01', 5_000], // 5.0 at one decimal, reached earlier
    ];
    await withTransaction(pool, async (client) => {
      await replaceDefinitions(client, environmentId, [BOARD]);
      await client.query(
        `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
         VALUES ($1, 'ties', $2, $3, $4)`,
        [environmentId, new Date(start).toISOString(), new Date(end).toISOString(), randomUUID()],
      );
      await client.query(
        `INSERT INTO board_scores (environment_id, board_key, period_start, player_id, aggregation, score, reached_at)
         SELECT $1, 'ties', $2, r.player, 'Max', r.score, r.reached_at
         FROM unnest($3::text[], $4::numeric[], $5::timestamptz[]) AS r(player, score, reached_at)`,
        [
          environmentId,
          new Date(start).toISOString(),
          rows.map((r) => r[0]),
          rows.map((r) => r[1]),
          rows.map((r) => new Date(start + r[2]).toISOString()),
        ],
      );
    });

    // The live board: the rank scores the mirror writes, ordered by Redis.
    const scale = scaleOf(BOARD, { periodStart: start, periodEnd: end });
    const liveKey = `${uniqueTopicPrefix()}ties`;
    const rankScores = new Map(
      rows.map(([p, score, after]) => [p, encodeRankScore(scale, score, start + after)]),
    );
    await redis.zadd(liveKey, ...[...rankScores].flatMap(([p, rankScore]) => [rankScore, p]));
    const live = await redis.zrevrange(liveKey, 0, -1);
    await redis.del(liveKey);
    expect(live).toEqual(['g', 'f', 'd', 'c', 'b', 'a', 'e']);

    // Named players, asked in any order, rank as the board does.
    const asked = ['a', 'e', 'b', 'g', 'd', 'c', 'f'];
    const named = rankNamed(
      asked.map((p) => ({ rank: 0, rowKey: p, displayName: null, score: 0, order: -rankScores.get(p)! })),
      null,
    );
    expect(named.map((r) => r.playerId)).toEqual(live);

    // Settlement, with no new score, keeps that order.
    const settled = await settleDuePeriods(
      {
        pool,
        redis,
        keyPrefix: uniqueTopicPrefix(),
        topicPrefix: 'ties-test.',
        log: createLogger('ties-test', 'silent'),
        published: () => {},
      },
      0,
      environmentId,
    );
    expect(settled.length).toBe(1);
    const { rows: results } = await pool.query<{ row_key: string; rank: number }>(
      'SELECT row_key, rank FROM board_results WHERE environment_id = $1 ORDER BY rank',
      [environmentId],
    );
    expect(results.map((r) => r.row_key)).toEqual(live);
  });

  it('settle a period cut on demand with the ticks the live board used', async () => {
    const { environmentId } = randomEnvironment();
    const start = Date.now() - 3_600_000;
    const end = start + 30 * 86_400_000; // ticks of 2,472 ms; cut after an hour, they would be 1 s
    const reached = { a: start + 9_900, b: start + 10_100 }; // one live tick, two ticks of 1 s
    await withTransaction(pool, async (client) => {
      await replaceDefinitions(client, environmentId, [BOARD]);
      await client.query(
        `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
         VALUES ($1, 'ties', $2, $3, $4)`,
        [environmentId, new Date(start).toISOString(), new Date(end).toISOString(), randomUUID()],
      );
      await client.query(
        `INSERT INTO board_scores (environment_id, board_key, period_start, player_id, aggregation, score, reached_at)
         VALUES ($1, 'ties', $2, 'a', 'Max', 3, $3), ($1, 'ties', $2, 'b', 'Max', 3, $4)`,
        [
          environmentId,
          new Date(start).toISOString(),
          new Date(reached.a).toISOString(),
          new Date(reached.b).toISOString(),
        ],
      );
    });
    const scale = scaleOf(BOARD, { periodStart: start, periodEnd: end });
    expect(encodeRankScore(scale, '3', reached.a)).toBe(encodeRankScore(scale, '3', reached.b));

    await withTransaction(pool, async (client) => {
      const claimed = await claimCurrentPeriod(client, {
        environmentId,
        boardKey: 'ties',
        start,
        end,
        organizationId: randomUUID(),
      });
      if (!claimed) throw new Error('the open period was not claimed');
      await settleClaimedPeriod(client, claimed, 'ties-test.');
    });
    const { rows: results } = await pool.query<{ row_key: string }>(
      'SELECT row_key FROM board_results WHERE environment_id = $1 ORDER BY rank',
      [environmentId],
    );
    // Tied on the live board (one tick): the player id, descending.
    expect(results.map((r) => r.row_key)).toEqual(['b', 'a']);
  });
});
