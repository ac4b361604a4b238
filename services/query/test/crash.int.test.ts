import { isDeepStrictEqual } from 'node:util';
import type { AcceptedEvent } from '@engage/contracts';
import { topicName, topics } from '@engage/contracts';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { createCatalogTopics } from '@engage/devstack';
import { consumerGroupId } from '@engage/kafka';
import { withTransaction } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import {
  randomEnvironment,
  schemaPool,
  serviceEnv,
  spawnService,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { acceptedEvent, connectEventsProducer, eventually } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { periodBoardKey } from '../src/boards/keys.ts';
import { decodeRankScore } from '../src/domain/rank-score.ts';
import { replaceDefinitions } from '../src/store/definitions.ts';
import { addToBoard, type Board, expectedBoards, loseRedisKeys, readBoards } from './support.ts';

const pool = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
afterAll(async () => {
  await pool.end();
  await redis.quit();
});

const consumed = async (prefix: string) => {
  const { rows } = await pool.query<{ consumed: string | null }>(
    'SELECT sum(next_offset)::text AS consumed FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
    [consumerGroupId('query', prefix), topicName(topics.eventsAccepted, prefix)],
  );
  return Number(rows[0]?.consumed ?? 0);
};

/** A leaderboard counting level_completed: its scores must be exact across kills and rebalances. */
const LEVELS = LeaderboardDefinitionSchema.parse({
  key: 'levels',
  name: 'Levels',
  scoreSource: { type: 'Event', event: 'level_completed' },
  aggregation: 'Count',
});

async function leaderboardScores(environmentId: string) {
  const { rows } = await pool.query<{ player_id: string; score: string }>(
    `SELECT player_id, score::text FROM board_scores WHERE environment_id = $1 AND board_key = 'levels'`,
    [environmentId],
  );
  return Object.fromEntries(rows.map((r) => [r.player_id, Number(r.score)]));
}

async function liveLeaderboard(prefix: string, environmentId: string) {
  const flat = await redis.zrange(
    periodBoardKey(prefix, environmentId, 'levels', 0),
    '0',
    '-1',
    'WITHSCORES',
  );
  const board: Board = {};
  for (let i = 0; i < flat.length; i += 2) {
    board[flat[i]!] = decodeRankScore({ decimals: 0, lowestFirst: false }, Number(flat[i + 1]));
  }
  return board;
}

describe('query under SIGKILL', () => {
  it('counts every event once and its boards catch up with Postgres', async () => {
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(stackConfig().brokers, prefix);
    const env = randomEnvironment();
    await withTransaction(pool, (client) => replaceDefinitions(client, env.environmentId, [LEVELS]));
    const producer = await connectEventsProducer(prefix);
    const query = await spawnService(
      stackConfig().repoRoot,
      'query',
      serviceEnv(prefix, { KAFKA_SESSION_TIMEOUT_MS: '6000', MIRROR_SWEEP_INTERVAL_MS: '500' }),
    );
    const produced: AcceptedEvent[] = [];
    const send = async (rounds: number) => {
      for (let round = 0; round < rounds; round++) {
        const batch = Array.from({ length: 40 }, (_, i) =>
          acceptedEvent(env, `player-${(round * 7 + i) % 20}`, {
            eventKey: i % 4 === 0 ? 'purchase' : 'level_completed',
          }),
        );
        await producer.send(batch);
        produced.push(...batch);
      }
    };
    try {
      for (let kill = 0; kill < 2; kill++) {
        const before = await consumed(prefix);
        await send(30);
        await eventually('the consumer to commit', async () =>
          (await consumed(prefix)) > before ? true : undefined,
        );
        await query.kill('SIGKILL');
        await query.restart();
      }
      // A second member joins while events arrive (a rebalance), then leaves again.
      const second = await spawnService(
        stackConfig().repoRoot,
        'query',
        serviceEnv(prefix, { KAFKA_SESSION_TIMEOUT_MS: '6000', MIRROR_SWEEP_INTERVAL_MS: '500' }),
      );
      await send(10);
      await second.stop();
      await send(10);
      await producer.close();
      await eventually('every record to be applied', async () =>
        (await consumed(prefix)) >= produced.length ? true : undefined,
      );
      expect(await consumed(prefix)).toBe(produced.length);
      const expected = expectedBoards(produced);
      const { rows } = await pool.query<{ player_id: string; event_key: string; events_counted: number }>(
        'SELECT player_id, event_key, events_counted FROM player_event_counts WHERE environment_id = $1',
        [env.environmentId],
      );
      const stored: Record<string, Board> = {};
      for (const r of rows) addToBoard(stored, r.event_key, r.player_id, r.events_counted);
      expect(stored).toEqual(expected);
      expect(await leaderboardScores(env.environmentId)).toEqual(expected.level_completed);
      await eventually('the boards to equal the durable record', async () =>
        isDeepStrictEqual(await readBoards(redis, prefix, env.environmentId), expected) ? true : undefined,
      );
      await eventually('the live leaderboard to equal the durable scores', async () =>
        isDeepStrictEqual(await liveLeaderboard(prefix, env.environmentId), expected.level_completed)
          ? true
          : undefined,
      );
    } finally {
      await query.stop();
      await loseRedisKeys(redis, prefix);
    }
  });
});
