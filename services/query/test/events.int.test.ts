import { isDeepStrictEqual } from 'node:util';
import type { AcceptedEvent } from '@engage/contracts';
import { topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { consumerGroupId } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { createRedis } from '@engage/redis';
import {
  internalHeaders,
  randomEnvironment,
  schemaPool,
  serviceEnv,
  spawnService,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { acceptedEvent, connectEventsProducer, eventually, numberProperty } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureEnvironmentMirrored } from '../src/mirror/counts-mirror.ts';
import { eventCountBoardKey } from '../src/mirror/keys.ts';

const pool = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
afterAll(async () => {
  await pool.end();
  await redis.quit();
});

const EVENT_KEYS = ['level_completed', 'purchase'];

type Board = Record<string, number>;

/** What the boards must hold: per event key, each player's count of it. */
function expectedBoards(events: AcceptedEvent[]): Record<string, Board> {
  const boards: Record<string, Board> = {};
  for (const e of events) {
    const board = (boards[e.eventKey] ??= {});
    board[e.playerId] = (board[e.playerId] ?? 0) + 1;
  }
  return boards;
}

async function readBoards(prefix: string, environmentId: string): Promise<Record<string, Board>> {
  const boards: Record<string, Board> = {};
  for (const eventKey of EVENT_KEYS) {
    const flat = await redis.zrange(
      eventCountBoardKey(prefix, environmentId, eventKey),
      '0',
      '-1',
      'WITHSCORES',
    );
    if (flat.length === 0) continue;
    const board: Board = {};
    for (let i = 0; i < flat.length; i += 2) board[flat[i]!] = Number(flat[i + 1]);
    boards[eventKey] = board;
  }
  return boards;
}

/** Loses this test's keys only: other tests share the Redis server. */
async function loseRedisKeys(prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = nextCursor;
  } while (cursor !== '0');
}

function produceMany(env: ReturnType<typeof randomEnvironment>, players: number, rounds: number) {
  const events: AcceptedEvent[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let p = 0; p < players; p++) {
      const amount = `${p}.${String(round).padStart(2, '0')}000001`;
      events.push(acceptedEvent(env, `player-${p}`, { eventKey: 'level_completed' }));
      if ((round + p) % 3 === 0) {
        events.push(
          acceptedEvent(env, `player-${p}`, {
            eventKey: 'purchase',
            properties: { amount: numberProperty(amount) },
          }),
        );
      }
    }
  }
  return events;
}

describe('query consumes accepted events', () => {
  it('keeps exact totals in Postgres, mirrors counts to Redis, and rebuilds them after a loss', async () => {
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(stackConfig().brokers, prefix);
    const env = randomEnvironment();
    const produced = produceMany(env, 15, 12);
    const producer = await connectEventsProducer(prefix);
    await producer.send(produced);

    const query = await spawnService(stackConfig().repoRoot, 'query', serviceEnv(prefix));
    try {
      const expected = expectedBoards(produced);
      await eventually('Redis to mirror every count', async () => {
        const boards = await readBoards(prefix, env.environmentId);
        return isDeepStrictEqual(boards, expected) ? boards : undefined;
      });
      const { rows } = await pool.query<{ consumed: string }>(
        'SELECT sum(next_offset)::text AS consumed FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
        [consumerGroupId('query', prefix), topicName(topics.eventsAccepted, prefix)],
      );
      expect(Number(rows[0]?.consumed)).toBe(produced.length);
      expect(await readBoards(prefix, env.environmentId)).toEqual(expected);

      // The durable record: counts and exact sums, read through the internal route.
      const mine = produced.filter((e) => e.playerId === 'player-7' && e.eventKey === 'purchase');
      const sum = mine.reduce(
        (total, e) => total + BigInt(e.properties.amount!.number!.replace('.', '')),
        0n,
      );
      const res = await fetch(`${query.url}/internal/v1/players/player-7/event-totals`, {
        headers: internalHeaders(env),
      });
      expect(await res.json()).toEqual({
        playerId: 'player-7',
        events: [
          { eventKey: 'level_completed', count: 12, sums: {} },
          { eventKey: 'purchase', count: mine.length, sums: { amount: formatScaled(sum) } },
        ],
      });

      // Redis loses this deployment's keys: the rebuild restores exactly what Postgres holds.
      await loseRedisKeys(prefix);
      const deps = { pool, redis, keyPrefix: prefix, log: createLogger('test', 'silent') };
      expect(await ensureEnvironmentMirrored(deps, env.environmentId)).toBe(true);
      expect(await readBoards(prefix, env.environmentId)).toEqual(expected);
      expect(await ensureEnvironmentMirrored(deps, env.environmentId)).toBe(false);

      // And the running service rebuilds on its own when the next event finds the marker gone.
      await loseRedisKeys(prefix);
      const late = acceptedEvent(env, 'player-0', { eventKey: 'purchase' });
      await producer.send([late]);
      const after = expectedBoards([...produced, late]);
      await eventually('the service to rebuild the lost boards', async () => {
        const boards = await readBoards(prefix, env.environmentId);
        return isDeepStrictEqual(boards, after) ? boards : undefined;
      });
      expect(await readBoards(prefix, env.environmentId)).toEqual(after);
    } finally {
      await producer.close();
      await query.stop();
      await loseRedisKeys(prefix);
    }
  });
});

function formatScaled(unscaled: bigint): string {
  const digits = unscaled.toString().padStart(9, '0');
  const fraction = digits.slice(-8).replace(/0+$/, '');
  return `${digits.slice(0, -8)}${fraction ? `.${fraction}` : ''}`;
}
