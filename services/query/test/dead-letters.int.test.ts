import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { consumerGroupId } from '@engage/kafka';
import {
  deadLettersOf,
  expectPoisonSetAsideAndReplayed,
  produceToPartition,
  randomEnvironment,
  schemaPool,
  serviceEnv,
  spawnService,
  stackConfig,
  stringProperty,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { acceptedEvent, eventually } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';

const pool = schemaPool('query');
afterAll(() => pool.end());

/** Events counted per player in the durable totals of an environment. */
async function countedPerPlayer(environmentId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ player_id: string; counted: number }>(
    `SELECT player_id, sum(events_counted)::int AS counted FROM player_event_totals
     WHERE environment_id = $1 GROUP BY player_id`,
    [environmentId],
  );
  return Object.fromEntries(rows.map((r) => [r.player_id, r.counted]));
}

const perPlayer = (events: AcceptedEvent[]) => {
  const counts: Record<string, number> = {};
  for (const event of events) counts[event.playerId] = (counts[event.playerId] ?? 0) + 1;
  return counts;
};

async function consumed(prefix: string): Promise<number> {
  const { rows } = await pool.query<{ consumed: string | null }>(
    'SELECT sum(next_offset)::text AS consumed FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
    [consumerGroupId('query', prefix), topicName(topics.eventsAccepted, prefix)],
  );
  return Number(rows[0]?.consumed ?? 0);
}

describe('an accepted event the query consumer cannot apply', () => {
  it('is set aside; the other players on its partition are scored once and the consumer goes on', async () => {
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(stackConfig().brokers, prefix);
    // Other organizations' players share the partition with the poisoned event.
    const [mine, other] = [randomEnvironment(), randomEnvironment()];
    const before = Array.from({ length: 4 }, (_, i) => acceptedEvent(other, `player-${i}`));
    // The API refuses a NUL in an id or a text (and Postgres could not store one either).
    const poison = acceptedEvent(mine, 'poison\u0000player', {
      properties: { note: stringProperty('nul\u0000inside') },
    });
    const after = Array.from({ length: 4 }, (_, i) => acceptedEvent(other, `player-${i + 2}`));
    await produceToPartition(prefix, topics.eventsAccepted, 0, [...before, poison, ...after]);

    const query = await spawnService(stackConfig().repoRoot, 'query', serviceEnv(prefix));
    try {
      const pid = query.pid();
      const produced = before.length + 1 + after.length;
      await eventually('the partition past every record', async () =>
        (await consumed(prefix)) === produced ? true : undefined,
      );
      expect(await countedPerPlayer(other.environmentId)).toEqual(perPlayer([...before, ...after]));
      expect(await countedPerPlayer(mine.environmentId)).toEqual({});

      const topic = topicName(topics.eventsAccepted, prefix);
      const group = consumerGroupId('query', prefix);
      await expectPoisonSetAsideAndReplayed({
        pool,
        service: query,
        schema: 'query',
        topic,
        group,
        offset: before.length,
      });
      expect(await countedPerPlayer(other.environmentId)).toEqual(perPlayer([...before, ...after]));
      expect(query.pid()).toBe(pid);
    } finally {
      await query.stop();
    }
  });
});

describe('an accepted event whose text the gateway would refuse', () => {
  it('is set aside as undecodable, not scored, and the consumer goes on', async () => {
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(stackConfig().brokers, prefix);
    const [mine, other] = [randomEnvironment(), randomEnvironment()];
    const before = acceptedEvent(other, 'player-before');
    // Written straight to the topic: the unpaired surrogates reach the broker as bytes that are not UTF-8.
    const lonePlayer = acceptedEvent(mine, 'lone\ud800player');
    const loneText = acceptedEvent(mine, 'player-text', {
      properties: { note: stringProperty('half an emoji \ud83d') },
    });
    // Well-formed text the API refuses all the same: an id over its 200 characters, a control character.
    const longPlayer = acceptedEvent(mine, 'p'.repeat(201));
    const controlKey = { ...acceptedEvent(mine, 'player-key'), idempotencyKey: 'key\u0007' };
    const after = acceptedEvent(other, 'player-after');
    await produceToPartition(prefix, topics.eventsAccepted, 0, [
      before,
      lonePlayer,
      loneText,
      longPlayer,
      controlKey,
      after,
    ]);

    const query = await spawnService(stackConfig().repoRoot, 'query', serviceEnv(prefix));
    try {
      await eventually('the partition past every record', async () =>
        (await consumed(prefix)) === 6 ? true : undefined,
      );
      expect(await countedPerPlayer(other.environmentId)).toEqual(perPlayer([before, after]));
      expect(await countedPerPlayer(mine.environmentId)).toEqual({});
      const letters = await deadLettersOf(pool, topicName(topics.eventsAccepted, prefix));
      expect(letters).toMatchObject([
        { partition: 0, offset: 1, reason: 'undecodable' },
        { partition: 0, offset: 2, reason: 'undecodable' },
        { partition: 0, offset: 3, reason: 'undecodable' },
        { partition: 0, offset: 4, reason: 'undecodable' },
      ]);
      expect(letters[0]!.error).toMatch(/not UTF-8/);
      expect(letters[2]!.error).toMatch(/playerId is not 1 to 200 characters/);
      expect(letters[3]!.error).toMatch(/idempotencyKey/);
    } finally {
      await query.stop();
    }
  });
});
