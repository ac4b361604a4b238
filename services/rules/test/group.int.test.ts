import type { AcceptedEvent } from '@engage/contracts';
import { topicName, topics } from '@engage/contracts';
import { consumerGroupId, createKafka } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { randomEnvironment, schemaPool, stackConfig } from '@engage/testkit';
import { connectEventsProducer, eventually } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { enterPlayers, expectProgressExactlyOnce, progressEvent } from './progress-model.ts';
import {
  appliedActivity,
  expectedActivity,
  freshTopics,
  seededRandom,
  spawnRules,
  waitUntilConsumed,
} from './support.ts';

const pool = schemaPool('rules');
afterAll(() => pool.end());

const random = seededRandom(7);
let index = 0;
const eventsFor = (env: ReturnType<typeof randomEnvironment>, players: number, perPlayer: number) =>
  Array.from({ length: perPlayer }, () =>
    Array.from({ length: players }, (_, p) => progressEvent(env, `player-${p}`, index++, random)),
  ).flat();
const playerIds = (n: number) => Array.from({ length: n }, (_, p) => `player-${p}`);

describe('rules in a consumer group', () => {
  it('keeps exact counts while a second process joins and the first leaves', async () => {
    const prefix = await freshTopics();
    const env = randomEnvironment();
    const producer = await connectEventsProducer(prefix);
    const produced: AcceptedEvent[] = [];
    const send = async (events: AcceptedEvent[]) => {
      await producer.send(events);
      produced.push(...events);
    };

    const first = await spawnRules(prefix);
    const second = await spawnRules(prefix).catch(async (err) => {
      await first.stop();
      throw err;
    });
    try {
      const snapshot = await enterPlayers(second.url, pool, env, playerIds(30));
      for (let round = 0; round < 20; round++) await send(eventsFor(env, 30, 5));
      // The first member leaves while records are still arriving: its partitions move again.
      await Promise.all([
        first.stop(),
        (async () => {
          for (let round = 0; round < 20; round++) await send(eventsFor(env, 30, 5));
        })(),
      ]);
      await producer.close();
      await waitUntilConsumed(pool, prefix, produced.length);
      expect(await appliedActivity(pool, env.environmentId)).toEqual(expectedActivity(produced));
      await expectProgressExactlyOnce(pool, prefix, snapshot, produced);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('counts nothing twice when the group offsets are reset to the beginning', async () => {
    const prefix = await freshTopics();
    const env = randomEnvironment();
    const producer = await connectEventsProducer(prefix);
    const rules = await spawnRules(prefix);
    const snapshot = await enterPlayers(rules.url, pool, env, playerIds(12));
    const before = eventsFor(env, 12, 20);
    await producer.send(before);

    const groupId = consumerGroupId('rules', prefix);
    const topic = topicName(topics.eventsAccepted, prefix);
    const kafka = createKafka({
      brokers: stackConfig().brokers,
      clientId: 'test-admin',
      log: createLogger('t', 'warn'),
    });
    const admin = kafka.admin();
    await admin.connect();
    try {
      await waitUntilConsumed(pool, prefix, before.length);
      // The group's own offsets follow the stored ones once every partition's batch was committed.
      await eventually('the group offsets to reach the end of the topic', async () => {
        const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
        const total = committed!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
        return total === before.length ? true : undefined;
      });
      await rules.stop();

      await admin.resetOffsets({ groupId, topic, earliest: true });
      const [reset] = await admin.fetchOffsets({ groupId, topics: [topic] });
      expect(reset!.partitions.every((p) => Number(p.offset) <= 0)).toBe(true);

      await rules.restart();
      const after = eventsFor(env, 12, 3);
      await producer.send(after);
      await waitUntilConsumed(pool, prefix, before.length + after.length);
      expect(await appliedActivity(pool, env.environmentId)).toEqual(expectedActivity([...before, ...after]));
      await expectProgressExactlyOnce(pool, prefix, snapshot, [...before, ...after]);
    } finally {
      await Promise.all([rules.stop(), admin.disconnect(), producer.close()]);
    }
  });
});
