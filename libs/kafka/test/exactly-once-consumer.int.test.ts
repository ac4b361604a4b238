import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { createLogger } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import {
  acceptedEvent,
  eventually,
  randomEnvironment,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApplyBatch,
  connectProducer,
  createKafka,
  type ExactlyOnceConsumerOptions,
  type KafkaClient,
  produceRecords,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '../src/index.ts';
import { migratedPool } from './migrated-pool.ts';

const SCHEMA = 'kafka_lib_test';

describe('startExactlyOnceConsumer with record ids', () => {
  let pool: Pool;
  let consumer: RunningConsumer | undefined;

  beforeAll(async () => {
    pool = await migratedPool(SCHEMA, 4);
  });

  afterAll(async () => {
    await consumer?.stop();
    await pool?.end();
  });

  /** An apply step that counts, per eventId, how often the consumer applied it. */
  const countApplications =
    (groupId: string) =>
    async ({ client, records }: { client: PoolClient; records: { value: AcceptedEvent }[] }) => {
      await client.query(
        `INSERT INTO applied_records (group_id, record_id, times)
         SELECT $1, id, 1 FROM unnest($2::text[]) AS id
         ON CONFLICT (group_id, record_id) DO UPDATE SET times = applied_records.times + 1`,
        [groupId, records.map((r) => r.value.eventId)],
      );
    };

  /** How often each eventId was applied in the group. */
  async function applications(groupId: string): Promise<Record<string, number>> {
    const { rows } = await pool.query<{ record_id: string; times: number }>(
      'SELECT record_id, times FROM applied_records WHERE group_id = $1',
      [groupId],
    );
    return Object.fromEntries(rows.map((r) => [r.record_id, r.times]));
  }

  /** Where each partition of the group's topic stands: stored next offsets by partition. */
  async function storedOffsets(groupId: string): Promise<Map<number, number>> {
    const { rows } = await pool.query<{ partition: number; next: number }>(
      'SELECT partition, next_offset::int AS next FROM kafka_offsets WHERE group_id = $1',
      [groupId],
    );
    return new Map(rows.map((r) => [r.partition, r.next]));
  }

  /** Waits until the group's stored offsets add up to `count` records applied or skipped. */
  const consumedAll = (groupId: string, count: number) =>
    eventually(`all ${count} records consumed`, async () => {
      const sum = [...(await storedOffsets(groupId)).values()].reduce((a, b) => a + b, 0);
      return sum >= count ? true : undefined;
    });

  type ConsumerSettings = Omit<
    ExactlyOnceConsumerOptions<AcceptedEvent>,
    'kafka' | 'pool' | 'log' | 'groupId' | 'topic' | 'definition'
  >;

  /** A fresh topic (its own prefix) with the catalog's partitions, a client and consumers for it. */
  async function freshTopic(name: string, logLevel: 'error' | 'silent' = 'error') {
    const { brokers } = stackConfig();
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(brokers, prefix);
    const log = createLogger('test', logLevel);
    const kafka = createKafka({ brokers, clientId: name, log });
    const topic = topicName(topics.eventsAccepted, prefix);
    const groupId = `${prefix}${name}`;
    return {
      prefix,
      kafka,
      topic,
      groupId,
      /** A consumer of this topic with the tests' settings and `options`. */
      start: (options: ConsumerSettings) =>
        startExactlyOnceConsumer({
          kafka,
          pool,
          log,
          groupId,
          topic,
          definition: topics.eventsAccepted,
          sessionTimeoutMs: 6_000,
          ...options,
        }),
    };
  }

  async function produce(kafka: KafkaClient, prefix: string, records: AcceptedEvent[]) {
    const producer = await connectProducer(kafka);
    await produceRecords(producer, topics.eventsAccepted, prefix, records);
    await producer.disconnect();
  }

  /**
   * Produces `records` to a fresh topic, runs a consumer that counts each applied eventId in
   * applied_records until every record is consumed, and returns how often each id was applied.
   */
  async function consumeOnce(
    name: string,
    records: AcceptedEvent[],
    recordId: (event: AcceptedEvent) => string | undefined,
  ): Promise<{ groupId: string; applied: Record<string, number> }> {
    const { prefix, kafka, groupId, start } = await freshTopic(name);
    await produce(kafka, prefix, records);
    consumer = await start({
      recordId,
      apply: countApplications(groupId),
    });
    try {
      await consumedAll(groupId, records.length);
    } finally {
      await consumer.stop();
      consumer = undefined;
    }
    return { groupId, applied: await applications(groupId) };
  }

  it.each([{ fetchRoundTransactions: undefined }, { fetchRoundTransactions: 1 }])(
    'never moves a stored offset back for records below it (a redelivery in chunks, %o)',
    async ({ fetchRoundTransactions }) => {
      const { prefix, kafka, topic, groupId, start } = await freshTopic('eo-test-below');
      const env = randomEnvironment();
      const records = Array.from({ length: 5 }, () => acceptedEvent(env, 'p1'));
      consumer = await start({
        maxRecordsPerTransaction: 1,
        fetchRoundTransactions,
        apply: countApplications(groupId),
      });
      try {
        // Stored after the consumer joined (no seek past them): the first three records of the
        // player's partition count as applied, and arrive in chunks of one record wholly below it.
        await pool.query(
          `INSERT INTO kafka_offsets (group_id, topic, partition, next_offset)
         SELECT $1, $2, p, 3 FROM generate_series(0, $3 - 1) AS p`,
          [groupId, topic, topics.eventsAccepted.partitions],
        );
        await produce(kafka, prefix, records);
        await eventually('the last record applied', async () => {
          const next = Math.max(...(await storedOffsets(groupId)).values());
          return next >= records.length ? true : undefined;
        });
      } finally {
        await consumer.stop();
        consumer = undefined;
      }
      expect(await applications(groupId)).toEqual({
        [records[3]!.eventId]: 1,
        [records[4]!.eventId]: 1,
      });
    },
  );

  it('applies a record written twice at different offsets once', async () => {
    const env = randomEnvironment();
    const [first, resent, last] = [
      acceptedEvent(env, 'p1'),
      acceptedEvent(env, 'p1'),
      acceptedEvent(env, 'p1'),
    ];
    // The re-sent copy has the same eventId at a later offset, as after a gateway crash.
    const { applied } = await consumeOnce(
      'eo-test',
      [first!, resent!, resent!, last!, first!],
      (event) => event.eventId,
    );
    expect(applied).toEqual({ [first!.eventId]: 1, [resent!.eventId]: 1, [last!.eventId]: 1 });
  });

  it('does not claim a record whose id is undefined, and still applies it', async () => {
    const env = randomEnvironment();
    const [keyed, plain] = [acceptedEvent(env, 'p1'), acceptedEvent(env, 'p1')];
    const { groupId, applied } = await consumeOnce('eo-test-unclaimed', [keyed!, plain!, keyed!], (event) =>
      event.eventId === plain!.eventId ? undefined : event.eventId,
    );
    expect(applied).toEqual({ [keyed!.eventId]: 1, [plain!.eventId]: 1 });
    const claims = await pool.query<{ record_id: string }>(
      'SELECT record_id FROM consumed_records WHERE group_id = $1',
      [groupId],
    );
    expect(claims.rows.map((r) => r.record_id)).toEqual([keyed!.eventId]);
  });

  it('applies a fetch round of many partitions in one transaction; a round that fails leaves every partition where it was', async () => {
    // Silent: kafkajs logs the injected failure as an error.
    const { prefix, kafka, groupId, start } = await freshTopic('eo-test-merged', 'silent');
    const env = randomEnvironment();
    // 48 players: every partition of the topic gets some.
    const records = Array.from({ length: 240 }, (_, i) => acceptedEvent(env, `p${i % 48}`));
    await produce(kafka, prefix, records);
    let transactions = 0;
    let widest = 0;
    consumer = await start({
      fetchRoundTransactions: 1,
      apply: async (batch) => {
        widest = Math.max(widest, batch.partitions.length);
        await countApplications(groupId)(batch);
        // The fault: the first round's effects are written, then it fails before its commit.
        if (++transactions === 1) throw new Error('injected failure before the commit');
      },
    });
    try {
      await consumedAll(groupId, records.length);
    } finally {
      await consumer.stop();
      consumer = undefined;
    }
    expect(transactions).toBeGreaterThan(1);
    expect(widest).toBeGreaterThan(1);
    expect(await applications(groupId)).toEqual(Object.fromEntries(records.map((r) => [r.eventId, 1])));
    const offsets = [...(await storedOffsets(groupId)).values()];
    expect(offsets.reduce((a, b) => a + b, 0)).toBe(records.length);
  });

  it('applies every record of a merged round whose partitions partly have no stored offset yet', async () => {
    const { prefix, kafka, topic, groupId, start } = await freshTopic('eo-test-merged-new-rows');
    const env = randomEnvironment();
    const records = Array.from({ length: 240 }, (_, i) => acceptedEvent(env, `p${i % 48}`));
    let widest = 0;
    // The first round waits for the last record, so the next round holds every partition the first
    // did not: some with a stored row, some without, however the fetches split the records.
    let producedAll = () => {};
    const produced = new Promise<void>((resolve) => {
      producedAll = resolve;
    });
    consumer = await start({
      fetchRoundTransactions: 1,
      apply: async (batch) => {
        await produced;
        widest = Math.max(widest, batch.partitions.length);
        await countApplications(groupId)(batch);
      },
    });
    try {
      // Stored after the consumer joined (no seek): rows at 0 for the even partitions only, so a
      // round's transaction moves those rows and creates the others.
      await pool.query(
        `INSERT INTO kafka_offsets (group_id, topic, partition, next_offset)
         SELECT $1, $2, p, 0 FROM generate_series(0, $3 - 1, 2) AS p`,
        [groupId, topic, topics.eventsAccepted.partitions],
      );
      await produce(kafka, prefix, records);
      producedAll();
      await consumedAll(groupId, records.length);
    } finally {
      producedAll();
      await consumer.stop();
      consumer = undefined;
    }
    expect(widest).toBeGreaterThan(1);
    expect(await applications(groupId)).toEqual(Object.fromEntries(records.map((r) => [r.eventId, 1])));
  });

  it('a member joining takes partitions away from merged rounds in flight: every record once', async () => {
    const { prefix, kafka, groupId, start } = await freshTopic('eo-test-merged-rebalance');
    const env = randomEnvironment();
    const appliedBy = [0, 0];
    const member = (index: number) =>
      start({
        fetchRoundTransactions: 1,
        apply: async (batch: ApplyBatch<AcceptedEvent>) => {
          await countApplications(groupId)(batch);
          appliedBy[index]! += batch.records.length;
          // Rounds stay in flight long enough for the rebalance to overlap them.
          await new Promise((resolve) => setTimeout(resolve, 40));
        },
      });
    const produced: AcceptedEvent[] = [];
    const produceSome = async () => {
      const records = Array.from({ length: 24 }, (_, i) => acceptedEvent(env, `p${i}`));
      await produce(kafka, prefix, records);
      produced.push(...records);
    };
    const first = await member(0);
    let second: RunningConsumer | undefined;
    try {
      for (let i = 0; i < 5; i++) await produceSome();
      second = await member(1);
      await eventually('the joining member applies records', async () => {
        await produceSome();
        return appliedBy[1]! > 0 ? true : undefined;
      });
      for (let i = 0; i < 5; i++) await produceSome();
      await consumedAll(groupId, produced.length);
    } finally {
      await second?.stop();
      await first.stop();
    }
    expect(appliedBy[0]).toBeGreaterThan(0);
    expect(await applications(groupId)).toEqual(Object.fromEntries(produced.map((r) => [r.eventId, 1])));
  });

  it('tells the service when kafkajs gives the consumer up, and applies nothing of that batch', async () => {
    const { prefix, kafka, groupId, start } = await freshTopic('eo-test-stopped', 'silent');
    const env = randomEnvironment();
    let stopped: Error | undefined;
    consumer = await start({
      // Transient for the consumer (never set aside: the database is going away), but an error
      // kafkajs does not restart from.
      apply: async () => {
        throw Object.assign(new Error('a defect no retry can mend'), { code: '57P01', retriable: false });
      },
      onStopped: (error) => {
        stopped = error;
      },
    });
    try {
      await produce(kafka, prefix, [acceptedEvent(env, 'p1')]);
      const error = await eventually('the consumer given up', async () => stopped);
      expect(error.message).toContain('a defect no retry can mend');
    } finally {
      await consumer.stop();
      consumer = undefined;
    }
    expect(await applications(groupId)).toEqual({});
  });
});
