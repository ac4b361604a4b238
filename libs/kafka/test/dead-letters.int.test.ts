import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { createLogger, metricsRegistry } from '@engage/kit';
import type { Pool } from '@engage/postgres';
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
  type RunningConsumer,
  replayDeadLetters,
  startExactlyOnceConsumer,
  toMessages,
} from '../src/index.ts';
import { migratedPool } from './migrated-pool.ts';

const SCHEMA = 'kafka_dead_letters_test';
let pool: Pool;
const running: RunningConsumer[] = [];

beforeAll(async () => {
  pool = await migratedPool(SCHEMA, 6);
});
afterAll(async () => {
  for (const consumer of running) await consumer.stop();
  await pool?.end();
});

/** A fresh events topic, and a consumer of it whose crashes (kafkajs restarts) are counted. */
async function freshTopic(name: string) {
  const { brokers } = stackConfig();
  const prefix = uniqueTopicPrefix();
  await createCatalogTopics(brokers, prefix);
  const log = createLogger('test', 'silent');
  const kafka = createKafka({ brokers, clientId: name, log });
  const topic = topicName(topics.eventsAccepted, prefix);
  const groupId = `${prefix}${name}`;
  const crashes: Error[] = [];
  const start = async <R>(
    options: Pick<
      ExactlyOnceConsumerOptions<AcceptedEvent, R>,
      'apply' | 'afterCommit' | 'fetchRoundTransactions'
    >,
  ) => {
    const consumer = await startExactlyOnceConsumer<AcceptedEvent, R>({
      kafka,
      pool,
      log,
      groupId,
      topic,
      // Without the topic's own check, which would refuse the poison as it is decoded: here it is
      // this test's apply that refuses it.
      definition: { ...topics.eventsAccepted, defectOf: undefined },
      sessionTimeoutMs: 6_000,
      recordId: (event) => event.eventId,
      ...options,
    });
    consumer.consumer.on(consumer.consumer.events.CRASH, ({ payload }) => crashes.push(payload.error));
    running.push(consumer);
    return consumer;
  };
  return { kafka, prefix, topic, groupId, crashes, start };
}

/** Produces the records to partition 0, in order. */
async function produceToPartitionZero(kafka: KafkaClient, topic: string, records: AcceptedEvent[]) {
  const producer = await connectProducer(kafka);
  try {
    const messages = toMessages(topics.eventsAccepted, records).map((m) => ({ ...m, partition: 0 }));
    await producer.send({ topic, acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

/**
 * Writes each record's player id as Postgres text (a NUL in it is refused with 22021, as any text
 * column refuses it) and counts each eventId applied.
 */
async function applyWritingText(
  { client, records }: ApplyBatch<AcceptedEvent>,
  groupId: string,
  mended = false,
) {
  const playerIds = records.map((r) => r.value.playerId);
  await client.query('SELECT $1::text[]', [
    mended ? playerIds.map((id) => id.replaceAll('\u0000', '')) : playerIds,
  ]);
  await client.query(
    `INSERT INTO applied_records (group_id, record_id, times)
     SELECT $1, id, 1 FROM unnest($2::text[]) AS id
     ON CONFLICT (group_id, record_id) DO UPDATE SET times = applied_records.times + 1`,
    [groupId, records.map((r) => r.value.eventId)],
  );
  return records.length;
}

async function applications(groupId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ record_id: string; times: number }>(
    'SELECT record_id, times FROM applied_records WHERE group_id = $1',
    [groupId],
  );
  return Object.fromEntries(rows.map((r) => [r.record_id, r.times]));
}

async function nextOffset(groupId: string, partition: number): Promise<number | undefined> {
  const { rows } = await pool.query<{ next: number }>(
    'SELECT next_offset::int AS next FROM kafka_offsets WHERE group_id = $1 AND partition = $2',
    [groupId, partition],
  );
  return rows[0]?.next;
}

async function metricValue(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = await metricsRegistry.getSingleMetric(name)?.get();
  const found = metric?.values.find((v) =>
    Object.entries(labels).every(([k, value]) => v.labels[k] === value),
  );
  return found?.value;
}

describe.each([{ fetchRoundTransactions: undefined }, { fetchRoundTransactions: 2 }])(
  'a record the consumer cannot apply ($fetchRoundTransactions)',
  ({ fetchRoundTransactions }) => {
    it('is set aside with its error; the records around it are applied once and the consumer goes on', async () => {
      const name = `dl-test-${fetchRoundTransactions ?? 'batch'}`;
      const { kafka, topic, groupId, crashes, start } = await freshTopic(name);
      const env = randomEnvironment();
      const before = Array.from({ length: 5 }, (_, i) => acceptedEvent(env, `before-${i}`));
      const poison = acceptedEvent(env, 'poison\u0000player');
      const after = Array.from({ length: 5 }, (_, i) => acceptedEvent(env, `after-${i}`));
      await produceToPartitionZero(kafka, topic, [...before, poison, ...after]);

      const committed: { records: number; result: number }[] = [];
      let mended = false;
      await start<number>({
        fetchRoundTransactions,
        apply: (batch) => applyWritingText(batch, groupId, mended),
        afterCommit: async ({ records, result }) => {
          committed.push({ records: records.length, result });
        },
      });
      await eventually('the partition past every record', async () =>
        (await nextOffset(groupId, 0)) === 11 ? true : undefined,
      );

      expect(await applications(groupId)).toEqual(
        Object.fromEntries([...before, ...after].map((r) => [r.eventId, 1])),
      );
      const { rows: letters } = await pool.query(
        `SELECT id, source, partition, "offset"::int AS offset, record_key, raw, reason, error
       FROM dead_letters WHERE topic = $1`,
        [topic],
      );
      expect(letters).toHaveLength(1);
      expect(letters[0]).toMatchObject({ source: groupId, partition: 0, offset: 5, reason: 'unapplicable' });
      expect(letters[0].error).toMatch(/0x00.*\(22021\)/);
      expect(letters[0].raw.equals(toMessages(topics.eventsAccepted, [poison])[0]!.value)).toBe(true);
      // afterCommit saw exactly what each committed transaction applied, and apply's answer for it.
      expect(committed.every((c) => c.records === c.result)).toBe(true);
      expect(committed.reduce((sum, c) => sum + c.records, 0)).toBe(10);
      expect(crashes).toEqual([]);
      expect(await metricValue('kafka_dead_letters_total', { source: groupId, reason: 'unapplicable' })).toBe(
        1,
      );
      expect(await metricValue('kafka_consumer_lag_records', { group: groupId, partition: '0' })).toBe(0);

      // Replayed once the cause is mended (here: the consumer now drops a NUL), it is applied once:
      // its eventId was never claimed.
      mended = true;
      const producer = await connectProducer(kafka);
      try {
        const { replayed, missing } = await replayDeadLetters(pool, producer, [Number(letters[0].id)]);
        expect(replayed).toEqual([{ id: Number(letters[0].id), topic }]);
        expect(missing).toEqual([]);
      } finally {
        await producer.disconnect();
      }
      await eventually('the replayed record applied', async () =>
        (await applications(groupId))[poison.eventId] === 1 ? true : undefined,
      );
      expect(await applications(groupId)).toEqual(
        Object.fromEntries([...before, poison, ...after].map((r) => [r.eventId, 1])),
      );
      const { rows: replayedRows } = await pool.query(
        'SELECT id FROM dead_letters WHERE topic = $1 AND replayed_at IS NOT NULL',
        [topic],
      );
      expect(replayedRows).toEqual([{ id: letters[0].id }]);
      expect(crashes).toEqual([]);
    });
  },
);

it('keeps the lag and a growing stall on a partition whose records fail for a transient reason, and sets none aside', async () => {
  const { kafka, topic, groupId, start } = await freshTopic('dl-test-transient');
  const env = randomEnvironment();
  let failing = true;
  await start({
    apply: async (batch) => {
      if (failing)
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        });
      await applyWritingText(batch, groupId);
    },
  });
  const records = Array.from({ length: 4 }, (_, i) => acceptedEvent(env, `p-${i}`));
  await produceToPartitionZero(kafka, topic, records);
  const labels = { group: groupId, partition: '0' };
  await eventually('the lag of the failing partition', async () =>
    (await metricValue('kafka_consumer_lag_records', labels)) === 4 ? true : undefined,
  );
  await eventually('the partition counted as stalled', async () => {
    const stalled = await metricValue('kafka_consumer_partition_stalled_seconds', labels);
    return stalled !== undefined && stalled > 1 ? true : undefined;
  });
  expect(await nextOffset(groupId, 0)).toBeUndefined();

  failing = false;
  await eventually('the partition applied once the failure passed', async () =>
    (await nextOffset(groupId, 0)) === 4 ? true : undefined,
  );
  expect(await applications(groupId)).toEqual(Object.fromEntries(records.map((r) => [r.eventId, 1])));
  expect(await metricValue('kafka_consumer_lag_records', labels)).toBe(0);
  expect(await metricValue('kafka_consumer_partition_stalled_seconds', labels)).toBe(0);
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM dead_letters WHERE topic = $1', [topic]);
  expect(rows[0].n).toBe(0);
});
