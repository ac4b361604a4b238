import { randomUUID } from 'node:crypto';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { createLogger } from '@engage/kit';
import { withTransaction } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { randomEnvironment, schemaPool, stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { settleDuePeriods } from '../src/application/settlement/settler.ts';
import { replaceDefinitions } from '../src/store/definitions.ts';

// Two pools stand for two query replicas; the spawned services of other tests settle only periods
// that ended SETTLE_GRACE_MS (30 s) ago, so they leave this test's period alone.
const replicaA = schemaPool('query');
const replicaB = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
afterAll(async () => {
  await replicaA.end();
  await replicaB.end();
  await redis.quit();
});

const LEAGUE = LeaderboardDefinitionSchema.parse({
  key: 'league',
  name: 'League',
  scoreSource: { type: 'Event', event: 'scored' },
  aggregation: 'Count',
  league: {
    groupSize: 4,
    tiers: [
      { key: 'bronze', promote: 1 },
      { key: 'silver', promote: 1, relegate: 1 },
    ],
  },
});

async function endedPeriodWithScores(environmentId: string) {
  const start = new Date(Date.now() - 3_600_000).toISOString();
  await withTransaction(replicaA, async (client) => {
    await replaceDefinitions(client, environmentId, [LEAGUE]);
    await client.query(
      `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
       VALUES ($1, 'league', $2, now() - interval '1 second', $3)`,
      [environmentId, start, randomUUID()],
    );
    // Seven players, four in silver group 0 and three in bronze group 0; scores 1..7.
    await client.query(
      `INSERT INTO board_scores (environment_id, board_key, period_start, player_id, aggregation, score, reached_at, tier, group_no)
       SELECT $1, 'league', $2, 'p' || i, 'Count', i, now() - interval '1 minute', CASE WHEN i <= 4 THEN 1 ELSE 0 END, 0
       FROM generate_series(1, 7) AS i`,
      [environmentId, start],
    );
  });
}

const deps = (pool: typeof replicaA, beforeCommit?: () => Promise<void>) => ({
  pool,
  redis,
  keyPrefix: uniqueTopicPrefix(),
  topicPrefix: 'settlement-test.',
  log: createLogger('settlement-test', 'silent'),
  published: () => {},
  beforeCommit,
});

describe('settlement', () => {
  it('settles a period exactly once across replicas, and a crash mid-settle leaves it for the next', async () => {
    const { environmentId } = randomEnvironment();
    await endedPeriodWithScores(environmentId);

    const crash = deps(replicaA, async () => {
      throw new Error('process died mid-settle');
    });
    await expect(settleDuePeriods(crash, 0, environmentId)).rejects.toThrow('process died mid-settle');
    const count = async (sql: string) =>
      (await replicaA.query<{ n: number }>(sql, [environmentId])).rows[0]?.n ?? -1;
    expect(await count('SELECT count(*)::int AS n FROM board_results WHERE environment_id = $1')).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM board_periods WHERE environment_id = $1 AND state = 'open'`,
      ),
    ).toBe(1);

    const [a, b] = await Promise.all([
      settleDuePeriods(deps(replicaA), 0, environmentId),
      settleDuePeriods(deps(replicaB), 0, environmentId),
    ]);
    expect(a.length + b.length).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM board_results WHERE environment_id = $1')).toBe(7);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM board_periods WHERE environment_id = $1 AND state = 'settled'`,
      ),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM outbox WHERE topic = 'settlement-test.leaderboards.settled.v1' AND key = $1 || ':league'`,
      ),
    ).toBe(7);

    // Silver is the highest tier: nobody goes up, its last (p1) goes down. Bronze: its best (p7) goes up.
    const { rows } = await replicaA.query<{
      row_key: string;
      rank: number;
      movement: string;
      next_tier: number;
    }>(
      `SELECT row_key, rank, movement, next_tier FROM board_results WHERE environment_id = $1 ORDER BY tier DESC, rank`,
      [environmentId],
    );
    expect(rows.map((r) => [r.row_key, r.rank, r.movement, r.next_tier])).toEqual([
      ['p4', 1, 'Stayed', 1],
      ['p3', 2, 'Stayed', 1],
      ['p2', 3, 'Stayed', 1],
      ['p1', 4, 'Relegated', 0],
      ['p7', 1, 'Promoted', 1],
      ['p6', 2, 'Stayed', 0],
      ['p5', 3, 'Stayed', 0],
    ]);
    const tiers = await replicaA.query<{ player_id: string; tier: number }>(
      'SELECT player_id, tier FROM league_tiers WHERE environment_id = $1 ORDER BY player_id',
      [environmentId],
    );
    expect(Object.fromEntries(tiers.rows.map((r) => [r.player_id, r.tier]))).toEqual({
      p1: 0,
      p2: 1,
      p3: 1,
      p4: 1,
      p5: 0,
      p6: 0,
      p7: 1,
    });

    // Nothing is left to settle: a later pass does nothing.
    expect(await settleDuePeriods(deps(replicaB), 0, environmentId)).toEqual([]);
  });
});
