// Consumers started on a broker that has just started (its group coordinator still creating and
// loading the offsets topic) join their groups without crashing: a crash makes kafkajs restart the
// consumer, closing connections that still have requests to write ("write after end").
import { Writable } from 'node:stream';
import { topicName, topics } from '@engage/contracts';
import { createCatalogTopics, type PrivateKafka, startPrivateKafka } from '@engage/devstack';
import type { Pool } from '@engage/postgres';
import { acceptedEvent, eventually, randomEnvironment, uniqueTopicPrefix } from '@engage/testkit';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import {
  connectProducer,
  createKafka,
  produceRecords,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '../src/index.ts';
import { migratedPool } from './migrated-pool.ts';

let broker: PrivateKafka | undefined;
let pool: Pool | undefined;
let consumers: RunningConsumer[] = [];
afterAll(async () => {
  await Promise.all(consumers.map((consumer) => consumer.stop()));
  await pool?.end();
  await broker?.destroy();
});

it('joins their groups on a broker that has just started without a crash and restart', {
  timeout: 180_000,
}, async () => {
  broker = await startPrivateKafka();
  pool = await migratedPool('kafka_fresh_broker_test', 2);
  const prefix = uniqueTopicPrefix();
  await createCatalogTopics(broker.brokers, prefix);
  const messages: string[] = [];
  const collect = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) messages.push(JSON.parse(line).msg);
      done();
    },
  });
  const log = pino({ level: 'debug' }, collect);
  const kafka = createKafka({ brokers: broker.brokers, clientId: 'fresh-broker-test', log });
  // Several groups at once, as the services of a stack join theirs.
  const groupIds = ['rules', 'query', 'ledger'].map((name) => `${prefix}${name}`);
  consumers = await Promise.all(
    groupIds.map((groupId) =>
      startExactlyOnceConsumer({
        kafka,
        pool: pool!,
        log,
        groupId,
        topic: topicName(topics.eventsAccepted, prefix),
        definition: topics.eventsAccepted,
        apply: async () => {},
      }),
    ),
  );

  const producer = await connectProducer(kafka);
  await produceRecords(producer, topics.eventsAccepted, prefix, [acceptedEvent(randomEnvironment(), 'p1')]);
  await producer.disconnect();
  await eventually('the record consumed', async () => {
    const { rows } = await pool!.query(
      'SELECT DISTINCT group_id FROM kafka_offsets WHERE group_id = ANY($1)',
      [groupIds],
    );
    return rows.length === groupIds.length ? true : undefined;
  });

  expect(messages.filter((msg) => /^Crash: |^Restarting the consumer/.test(msg))).toEqual([]);
});
