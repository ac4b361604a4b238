import { fileURLToPath } from 'node:url';
import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { createLogger } from '@engage/kit';
import { createPool, migrate, type Pool, type PoolClient } from '@engage/postgres';
import {
  acceptedEvent,
  eventually,
  randomEnvironment,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectProducer,
  createKafka,
  produceRecords,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '../src/index.ts';

const SCHEMA = 'kafka_lib_test';

describe('startExactlyOnceConsumer with record ids', () => {
  let pool: Pool;
  let consumer: RunningConsumer | undefined;

  beforeAll(async () => {
    const { databaseUrl } = stackConfig();
    await migrate({
      databaseUrl,
      schema: SCHEMA,
      dir: fileURLToPath(new URL('./migrations', import.meta.url)),
    });
    pool = createPool({ url: databaseUrl, schema: SCHEMA, max: 4 });
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

  /**
   * Produces `records` to a fresh topic, runs a consumer that counts each applied eventId in
   * applied_records until every record is consumed, and returns how often each id was applied.
   */
  async function consumeOnce(
    name: string,
    records: AcceptedEvent[],
    recordId: (event: AcceptedEvent) => string | undefined,
  ): Promise<{ groupId: string; applied: Record<string, number> }> {
    const { brokers } = stackConfig();
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(brokers, prefix);
    const log = createLogger('test', 'error');
    const kafka = createKafka({ brokers, clientId: name, log });
    const producer = await connectProducer(kafka);
    await produceRecords(producer, topics.eventsAccepted, prefix, records);
    await producer.disconnect();

    const groupId = `${prefix}${name}`;
    consumer = await startExactlyOnceConsumer({
      kafka,
      pool,
      log,
      groupId,
      topic: topicName(topics.eventsAccepted, prefix),
      definition: topics.eventsAccepted,
      sessionTimeoutMs: 6_000,
      recordId,
      apply: countApplications(groupId),
    });
    try {
      await eventually(`all ${records.length} records consumed`, async () => {
        const { rows } = await pool.query<{ next: number }>(
          'SELECT coalesce(sum(next_offset), 0)::int AS next FROM kafka_offsets WHERE group_id = $1',
          [groupId],
        );
        return rows[0]!.next >= records.length ? true : undefined;
      });
    } finally {
      await consumer.stop();
      consumer = undefined;
    }
    return { groupId, applied: await applications(groupId) };
  }

  it('never moves a stored offset back for records below it (a redelivery in chunks)', async () => {
    const { brokers } = stackConfig();
    const prefix = uniqueTopicPrefix();
    await createCatalogTopics(brokers, prefix);
    const log = createLogger('test', 'error');
    const kafka = createKafka({ brokers, clientId: 'eo-test-below', log });
    const topic = topicName(topics.eventsAccepted, prefix);
    const groupId = `${prefix}eo-test-below`;
    const env = randomEnvironment();
    const records = Array.from({ length: 5 }, () => acceptedEvent(env, 'p1'));
    consumer = await startExactlyOnceConsumer({
      kafka,
      pool,
      log,
      groupId,
      topic,
      definition: topics.eventsAccepted,
      sessionTimeoutMs: 6_000,
      maxRecordsPerTransaction: 1,
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
      const producer = await connectProducer(kafka);
      await produceRecords(producer, topics.eventsAccepted, prefix, records);
      await producer.disconnect();
      await eventually('the last record applied', async () => {
        const { rows } = await pool.query<{ next: number }>(
          'SELECT max(next_offset)::int AS next FROM kafka_offsets WHERE group_id = $1',
          [groupId],
        );
        return rows[0]!.next >= records.length ? true : undefined;
      });
    } finally {
      await consumer.stop();
      consumer = undefined;
    }
    expect(await applications(groupId)).toEqual({
      [records[3]!.eventId]: 1,
      [records[4]!.eventId]: 1,
    });
  });

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
});
