import { isDeepStrictEqual } from 'node:util';
import type { AcceptedEvent } from '@engage/contracts';
import { topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { consumerGroupId } from '@engage/kafka';
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
import {
  addToBoard,
  type Board,
  defineCountBoards,
  expectedBoards,
  loseRedisKeys,
  readBoards,
  storedBoards,
} from './support.ts';

const pool = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
afterAll(async () => {
  await pool.end();
  await redis.quit();
});
const queryEnv = (prefix: string) =>
  serviceEnv(prefix, {
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    MIRROR_SWEEP_INTERVAL_MS: '500',
  });

const consumed = async (prefix: string) => {
  const { rows } = await pool.query<{ consumed: string | null }>(
    'SELECT sum(next_offset)::text AS consumed FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
    [consumerGroupId('query', prefix), topicName(topics.eventsAccepted, prefix)],
  );
  return Number(rows[0]?.consumed ?? 0);
};

describe('query under SIGKILL', () => {
  // Two SIGKILLs and a member joining and leaving: rebalances are slow on a loaded machine.
  it('counts every event once and its boards catch up with Postgres', async () => {
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(stackConfig().brokers, prefix);
    const env = randomEnvironment();
    await defineCountBoards(pool, env.environmentId);
    const producer = await connectEventsProducer(prefix);
    const query = await spawnService(stackConfig().repoRoot, 'query', queryEnv(prefix));
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
      const second = await spawnService(stackConfig().repoRoot, 'query', queryEnv(prefix));
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
        'SELECT player_id, event_key, events_counted FROM player_event_totals WHERE environment_id = $1',
        [env.environmentId],
      );
      const stored: Record<string, Board> = {};
      for (const r of rows) addToBoard(stored, r.event_key, r.player_id, r.events_counted);
      expect(stored).toEqual(expected);
      expect(await storedBoards(pool, env.environmentId)).toEqual(expected);
      await eventually('the boards to equal the durable record', async () =>
        isDeepStrictEqual(await readBoards(redis, prefix, env.environmentId), expected) ? true : undefined,
      );
    } finally {
      await query.stop();
      await loseRedisKeys(redis, prefix);
    }
  }, 150_000);
});
