import { topicName, topics } from '@engage/contracts';
import { consumerGroupId } from '@engage/kafka';
import {
  deadLettersOf,
  expectPoisonSetAsideAndReplayed,
  produceToPartition,
  randomEnvironment,
  schemaPool,
} from '@engage/testkit';
import { acceptedEvent, eventually } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { appliedActivity, consumedRecords, expectedActivity, freshTopics, spawnRules } from './support.ts';

const pool = schemaPool('rules');
afterAll(() => pool.end());

describe('an accepted event the rules consumer cannot apply', () => {
  it('is set aside; the other players on its partition are applied once and the consumer goes on', async () => {
    const prefix = await freshTopics();
    const env = randomEnvironment();
    const before = Array.from({ length: 4 }, (_, i) => acceptedEvent(env, `player-${i}`));
    // The API refuses a NUL in a player id (and Postgres could not store one either).
    const poison = acceptedEvent(env, 'poison\u0000player');
    const after = Array.from({ length: 4 }, (_, i) => acceptedEvent(env, `player-${i + 2}`));
    await produceToPartition(prefix, topics.eventsAccepted, 0, [...before, poison, ...after]);

    const rules = await spawnRules(prefix);
    try {
      const produced = before.length + 1 + after.length;
      const pid = rules.pid();
      await eventually('the partition past every record', async () =>
        (await consumedRecords(pool, prefix)) === produced ? true : undefined,
      );
      expect(await appliedActivity(pool, env.environmentId)).toEqual(expectedActivity([...before, ...after]));

      const topic = topicName(topics.eventsAccepted, prefix);
      const group = consumerGroupId('rules', prefix);
      await expectPoisonSetAsideAndReplayed({
        pool,
        service: rules,
        schema: 'rules',
        topic,
        group,
        offset: before.length,
      });
      expect(await appliedActivity(pool, env.environmentId)).toEqual(expectedActivity([...before, ...after]));
      expect(rules.pid()).toBe(pid);
    } finally {
      await rules.stop();
    }
  });
});

describe('an accepted event whose text the gateway would refuse', () => {
  it('is set aside as undecodable, not applied, and the consumer goes on', async () => {
    const prefix = await freshTopics();
    const env = randomEnvironment();
    const before = acceptedEvent(env, 'player-before');
    // Written straight to the topic: the unpaired surrogate reaches the broker as bytes that are not UTF-8.
    const lone = acceptedEvent(env, 'lone\udc00player');
    const after = acceptedEvent(env, 'player-after');
    await produceToPartition(prefix, topics.eventsAccepted, 0, [before, lone, after]);

    const rules = await spawnRules(prefix);
    try {
      await eventually('the partition past every record', async () =>
        (await consumedRecords(pool, prefix)) === 3 ? true : undefined,
      );
      expect(await appliedActivity(pool, env.environmentId)).toEqual(expectedActivity([before, after]));
      const letters = await deadLettersOf(pool, topicName(topics.eventsAccepted, prefix));
      expect(letters).toMatchObject([{ partition: 0, offset: 1, reason: 'undecodable' }]);
      expect(letters[0]!.error).toMatch(/not UTF-8/);
    } finally {
      await rules.stop();
    }
  });
});
