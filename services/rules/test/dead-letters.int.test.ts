import { topicName, topics } from '@engage/contracts';
import { consumerGroupId } from '@engage/kafka';
import {
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
    // Postgres text refuses NUL (22P05 inside the consumer's JSON parameter): the player id cannot be stored.
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
