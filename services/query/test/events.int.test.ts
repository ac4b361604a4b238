import { isDeepStrictEqual } from 'node:util';
import type { AcceptedEvent } from '@engage/contracts';
import { topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { consumerGroupId } from '@engage/kafka';
import { createLogger } from '@engage/kit';
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
import { acceptedEvent, connectEventsProducer, eventually, numberProperty } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBoardsMirrored } from '../src/application/scoring/mirror.ts';
import { DefinitionCache } from '../src/store/definitions.ts';
import { defineCountBoards, expectedBoards, loseRedisKeys, readBoards } from './support.ts';

const pool = schemaPool('query');
const redis = createRedis(stackConfig().redisUrl);
afterAll(async () => {
  await pool.end();
  await redis.quit();
});

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
  it('keeps exact totals in Postgres, count boards in Redis, and rebuilds them after a loss', async () => {
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(stackConfig().brokers, prefix);
    const env = randomEnvironment();
    await defineCountBoards(pool, env.environmentId);
    // An event with an idempotency key may be on the topic twice (the gateway re-sends it with its
    // eventId after a crash or a failed send): it counts once. Keyless events are never claimed.
    const keyed = [0, 1, 2].map((p) => ({
      ...acceptedEvent(env, `player-${p}`, { eventKey: 'level_completed' }),
      idempotencyKey: `bonus-${p}`,
    }));
    const produced = [...produceMany(env, 15, 12), ...keyed, ...keyed];
    const producer = await connectEventsProducer(prefix);
    await producer.send(produced);

    const query = await spawnService(stackConfig().repoRoot, 'query', serviceEnv(prefix));
    try {
      const expected = expectedBoards(produced.slice(0, -keyed.length));
      await eventually('Redis to mirror every count', async () => {
        const boards = await readBoards(redis, prefix, env.environmentId);
        return isDeepStrictEqual(boards, expected) ? boards : undefined;
      });
      const { rows } = await pool.query<{ consumed: string }>(
        'SELECT sum(next_offset)::text AS consumed FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
        [consumerGroupId('query', prefix), topicName(topics.eventsAccepted, prefix)],
      );
      expect(Number(rows[0]?.consumed)).toBe(produced.length);
      expect(await readBoards(redis, prefix, env.environmentId)).toEqual(expected);

      // The durable record: counts and exact sums, read through the internal route.
      const mine = produced.filter((e) => e.playerId === 'player-7' && e.eventKey === 'purchase');
      const sum = mine.reduce(
        (total, e) => total + BigInt(e.properties.amount!.number!.replace('.', '')),
        0n,
      );
      const res = await fetchAsGateway(`${query.url}/internal/v1/players/player-7/event-totals`, {
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
      await loseRedisKeys(redis, prefix);
      const deps = {
        pool,
        redis,
        keyPrefix: prefix,
        log: createLogger('test', 'silent'),
        definitions: new DefinitionCache(pool, 0),
      };
      expect(await ensureBoardsMirrored(deps, env.environmentId)).toBe(true);
      expect(await readBoards(redis, prefix, env.environmentId)).toEqual(expected);
      expect(await ensureBoardsMirrored(deps, env.environmentId)).toBe(false);

      // And the running service rebuilds on its own when the next event finds the marker gone.
      await loseRedisKeys(redis, prefix);
      const late = acceptedEvent(env, 'player-0', { eventKey: 'purchase' });
      await producer.send([late]);
      const after = expectedBoards([...produced.slice(0, -keyed.length), late]);
      await eventually('the service to rebuild the lost boards', async () => {
        const boards = await readBoards(redis, prefix, env.environmentId);
        return isDeepStrictEqual(boards, after) ? boards : undefined;
      });
      expect(await readBoards(redis, prefix, env.environmentId)).toEqual(after);
    } finally {
      await producer.close();
      await query.stop();
      await loseRedisKeys(redis, prefix);
    }
  });
});

function formatScaled(unscaled: bigint): string {
  const digits = unscaled.toString().padStart(9, '0');
  const fraction = digits.slice(-8).replace(/0+$/, '');
  return `${digits.slice(0, -8)}${fraction ? `.${fraction}` : ''}`;
}
