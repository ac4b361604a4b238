import { topicName, topics } from '@engage/contracts';
import { consumerGroupId } from '@engage/kafka';
import {
  deadLettersOf,
  produceToPartition,
  randomEnvironment,
  replayDeadLetters,
  schemaPool,
  scrapeMetric,
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
    // Postgres text refuses NUL (22021): the player id cannot be stored.
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
      const letters = await deadLettersOf(pool, topic);
      expect(letters).toMatchObject([
        { source: group, partition: 0, offset: before.length, reason: 'unapplicable', replayed: false },
      ]);
      expect(letters[0]!.error).toMatch(/0x00 \(22021\)/);
      expect(await scrapeMetric(rules.metricsUrl, 'kafka_dead_letters_total', { source: group, topic })).toBe(
        1,
      );
      expect(
        await scrapeMetric(rules.metricsUrl, 'kafka_consumer_lag_records', { group, topic, partition: '0' }),
      ).toBe(0);
      // The process lived on and kafkajs never had to restart the consumer.
      expect(rules.logs()).not.toMatch(/Restarting the consumer|consumer stopped/);

      // Replayed unchanged, it is still refused: kept again at its new offset, nothing applied twice.
      const replay = replayDeadLetters('rules', [letters[0]!.id]);
      expect(replay.status, replay.output).toBe(0);
      await eventually('the replayed record set aside again', async () => {
        const now = await deadLettersOf(pool, topic);
        return now.length === 2 ? now : undefined;
      });
      expect(await deadLettersOf(pool, topic)).toMatchObject([
        { offset: before.length, replayed: true },
        // Where the key's partition took it (the replay sends it by key, as the gateway did).
        { source: group, reason: 'unapplicable', replayed: false },
      ]);
      expect(await appliedActivity(pool, env.environmentId)).toEqual(expectedActivity([...before, ...after]));
      expect(await scrapeMetric(rules.metricsUrl, 'kafka_dead_letters_total', { source: group, topic })).toBe(
        2,
      );
      expect(rules.pid()).toBe(pid);
    } finally {
      await rules.stop();
    }
  });
});
