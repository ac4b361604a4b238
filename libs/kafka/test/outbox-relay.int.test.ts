import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { createLogger, metricsRegistry } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import {
  acceptedEvent,
  eventually,
  randomEnvironment,
  readTopicRecords,
  stackConfig,
  stringProperty,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKafka, enqueueOutbox, type OutboxRelay, startOutboxRelay } from '../src/index.ts';
import { migratedPool } from './migrated-pool.ts';

const SCHEMA = 'kafka_outbox_relay_test';
/** The relay's pool (its statements recorded) and the test's own. */
let pool: Pool;
let admin: Pool;
/** The first word of every statement the relay's connections ran, in order. */
const statements: string[] = [];
let relay: OutboxRelay | undefined;

beforeAll(async () => {
  pool = await migratedPool(SCHEMA, 2, true);
  admin = await migratedPool(SCHEMA, 2);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: string | { text: string }, ...rest: unknown[]) => {
      statements.push((typeof config === 'string' ? config : config.text).trim().split(/\s/)[0]!);
      return query(config, ...rest);
    }) as typeof client.query;
  });
});
afterAll(async () => {
  await relay?.stop();
  await pool?.end();
  await admin?.end();
});

const enqueue = async (prefix: string, records: AcceptedEvent[]) => {
  const client = await admin.connect();
  try {
    await enqueueOutbox(client, topics.eventsAccepted, prefix, records);
  } finally {
    client.release();
  }
};

it('publishes in id order, waits while another relay holds the lock, and takes BEGIN, one statement and COMMIT per publish', async () => {
  const { brokers } = stackConfig();
  const prefix = uniqueTopicPrefix();
  await createCatalogTopics(brokers, prefix);
  const env = randomEnvironment();
  const first = Array.from({ length: 5 }, () => acceptedEvent(env, 'p1'));
  await enqueue(prefix, first);

  // Another relay of the schema (here: a session holding its lock) is publishing.
  const other = await admin.connect();
  await other.query("SELECT pg_advisory_lock($1, hashtext(current_schema() || ':' || $2))", [
    0x6e676167,
    prefix,
  ]);
  const log = createLogger('outbox-relay-test', 'error');
  relay = startOutboxRelay({
    pool,
    kafka: createKafka({ brokers, clientId: 'relay-test', log }),
    topicPrefix: prefix,
    log,
    idleMs: 20,
  });
  await eventually('the relay to try twice', async () =>
    statements.filter((s) => s === 'COMMIT').length >= 2 ? true : undefined,
  );
  const { rows: waiting } = await admin.query('SELECT count(*)::int AS n FROM outbox');
  expect(waiting[0].n).toBe(first.length);

  await other.query("SELECT pg_advisory_unlock($1, hashtext(current_schema() || ':' || $2))", [
    0x6e676167,
    prefix,
  ]);
  other.release();
  const second = Array.from({ length: 5 }, () => acceptedEvent(env, 'p1'));
  await enqueue(prefix, second);
  relay.kick();
  await eventually('the outbox to be empty', async () => {
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM outbox');
    return rows[0].n === 0 ? true : undefined;
  });
  await relay.stop();
  relay = undefined;

  const published = await readTopicRecords(prefix, topics.eventsAccepted);
  expect(published.map((r) => r.eventId)).toEqual([...first, ...second].map((r) => r.eventId));
  // Each of the relay's transactions: BEGIN, the statement that locks and takes rows, COMMIT.
  const relayTransactions = statements.join(' ').split(/ (?=BEGIN)/);
  expect(relayTransactions.length).toBeGreaterThan(2);
  expect(new Set(relayTransactions)).toEqual(new Set(['BEGIN WITH COMMIT']));
});

it('sets a row the broker refuses aside in dead_letters after a few attempts, and publishes the rows around it', async () => {
  const { brokers } = stackConfig();
  const prefix = uniqueTopicPrefix();
  const topic = topicName(topics.eventsAccepted, prefix);
  const log = createLogger('outbox-relay-test', 'silent');
  const kafka = createKafka({ brokers, clientId: 'relay-test-refused', log });
  // Records larger than this are refused by the broker (MESSAGE_TOO_LARGE), whatever the retries. Set
  // when the topic is created, so it is in force from the first send (a change to an existing
  // topic's settings reaches the broker's log a moment after the controller accepts it).
  const kafkaAdmin = kafka.admin();
  await kafkaAdmin.connect();
  try {
    await kafkaAdmin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic,
          numPartitions: 1,
          replicationFactor: 1,
          configEntries: [{ name: 'max.message.bytes', value: '4096' }],
        },
      ],
    });
  } finally {
    await kafkaAdmin.disconnect();
  }
  const env = randomEnvironment();
  const before = Array.from({ length: 3 }, () => acceptedEvent(env, 'p1'));
  const tooLarge = acceptedEvent(env, 'p1', { properties: { note: stringProperty('x'.repeat(10_000)) } });
  const after = Array.from({ length: 3 }, () => acceptedEvent(env, 'p1'));
  // Another deployment's row, first in id order, on a topic this broker does not have: not this relay's.
  const elsewhere = uniqueTopicPrefix();
  await enqueue(elsewhere, [acceptedEvent(env, 'p1')]);
  await enqueue(prefix, [...before, tooLarge, ...after]);

  relay = startOutboxRelay({ pool, kafka, log, topicPrefix: prefix, idleMs: 20 });
  await eventually('the outbox to hold only the other deployment’s row', async () => {
    const { rows } = await admin.query('SELECT topic FROM outbox');
    return rows.length === 1 ? rows : undefined;
  });
  expect((await admin.query('SELECT topic FROM outbox')).rows).toEqual([
    { topic: topicName(topics.eventsAccepted, elsewhere) },
  ]);
  await admin.query('DELETE FROM outbox');
  await relay.stop();
  relay = undefined;

  const published = await readTopicRecords(prefix, topics.eventsAccepted);
  expect(published.map((r) => r.eventId)).toEqual([...before, ...after].map((r) => r.eventId));
  const { rows: letters } = await admin.query(
    `SELECT source, topic, partition, "offset", raw, reason, error FROM dead_letters WHERE topic = $1`,
    [topic],
  );
  expect(letters).toHaveLength(1);
  expect(letters[0]).toMatchObject({
    source: 'outbox',
    topic,
    partition: null,
    offset: null,
    reason: 'unpublishable',
  });
  expect(letters[0].error).toMatch(/larger than the max message size/);
  // Its raw bytes, read back with the schema alone: its text is over what the API takes on purpose.
  expect(topics.eventsAccepted.type.fromBuffer(letters[0].raw).eventId).toBe(tooLarge.eventId);
  const counted = await metricsRegistry.getSingleMetric('kafka_dead_letters_total')?.get();
  expect(counted?.values.find((v) => v.labels.topic === topic)).toMatchObject({
    labels: { source: 'outbox', reason: 'unpublishable' },
    value: 1,
  });
  const failedSends = await metricsRegistry.getSingleMetric('kafka_produce_failures_total')?.get();
  expect(failedSends?.values.find((v) => v.labels.topic === topic)?.value).toBeGreaterThanOrEqual(3);
});
