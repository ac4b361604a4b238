import {
  type AcceptedEvent,
  allTopics,
  logicalTypes,
  schemaText,
  topicName,
  topics,
} from '@engage/contracts';
import { createCatalogTopics, type RunningRegistry, startRegistry } from '@engage/devstack';
import { createLogger, type SchemaRegistrySettings } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import {
  acceptedEvent,
  eventually,
  randomEnvironment,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import avro from 'avsc';
import type { KafkaMessage } from 'kafkajs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  connectProducer,
  createKafka,
  framed,
  produceRecords,
  type RunningConsumer,
  SCHEMA_HEADER,
  SchemaRegistryError,
  schemaHeaders,
  startExactlyOnceConsumer,
  startSchemaRegistryMode,
  stopSchemaRegistryMode,
} from '../src/index.ts';
import { migratedPool } from './migrated-pool.ts';

/**
 * Registry mode against a real Apicurio Registry (built once per checkout by libs/devstack, about a
 * minute and a half from an empty Maven repository, then ready in seconds).
 */
const log = createLogger('test', 'error');
let registry: RunningRegistry;
let pool: Pool;
let consumer: RunningConsumer | undefined;

beforeAll(async () => {
  registry = await startRegistry({ log: (line) => process.stdout.write(`[registry] ${line}\n`) });
  pool = await migratedPool('kafka_registry_test', 2);
}, 600_000);

afterAll(async () => {
  stopSchemaRegistryMode();
  await consumer?.stop();
  await pool?.end();
  await registry?.stop();
});

const settings = (): SchemaRegistrySettings => ({ url: registry.url, compatibility: 'BACKWARD' });

async function registryGet(path: string): Promise<unknown> {
  const response = await fetch(`${registry.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.json();
}

async function registryPost(path: string, body: unknown, method = 'POST'): Promise<Response> {
  return fetch(`${registry.url}${path}`, {
    method,
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify(body),
  });
}

/** Every message now in `topic`, as bytes, in partition and offset order. */
async function rawMessages(kafka: ReturnType<typeof createKafka>, topic: string, count: number) {
  const reader = kafka.consumer({ groupId: `raw-${crypto.randomUUID()}` });
  await reader.connect();
  await reader.subscribe({ topic, fromBeginning: true });
  const messages: KafkaMessage[] = [];
  const { promise, resolve } = Promise.withResolvers<void>();
  await reader.run({
    eachMessage: async ({ message }) => {
      messages.push(message);
      if (messages.length >= count) resolve();
    },
  });
  await promise;
  await reader.disconnect();
  return messages;
}

it('writes the Confluent wire format under the id it registered with BACKWARD, and a consumer reads plain, framed and older-schema records', async () => {
  const { brokers } = stackConfig();
  const prefix = uniqueTopicPrefix();
  await createCatalogTopics(brokers, prefix, {
    topics: allTopics().filter((def) => def.base === topics.eventsAccepted.base),
  });
  const topic = topicName(topics.eventsAccepted, prefix);
  const subject = `${topic}-value`;
  const kafka = createKafka({ brokers, clientId: 'registry-test', log });
  const producer = await connectProducer(kafka);
  const env = randomEnvironment();
  // One player: one partition, so the records stay in the order written.
  const plain = [acceptedEvent(env, 'p1'), { ...acceptedEvent(env, 'p1'), idempotencyKey: 'k-1' }];
  const framedEvents = [acceptedEvent(env, 'p1'), { ...acceptedEvent(env, 'p1'), idempotencyKey: 'k-2' }];

  // Before the migration: plain Avro.
  await produceRecords(producer, topics.eventsAccepted, prefix, plain);
  // Registry mode on: the schema is registered at start, records are framed.
  await startSchemaRegistryMode(settings(), { writes: [topics.eventsAccepted], topicPrefix: prefix, log });
  await produceRecords(producer, topics.eventsAccepted, prefix, framedEvents);

  // A record of another producer whose schema is an older one, without idempotencyKey (default null).
  const older = JSON.parse(schemaText(topics.eventsAccepted.schemaFile)) as { fields: { name: string }[] };
  older.fields = older.fields.filter((field) => field.name !== 'idempotencyKey');
  const registered = await registryPost(`/subjects/${prefix}older-writer-value/versions`, {
    schema: JSON.stringify(older),
  });
  const olderId = ((await registered.json()) as { id: number }).id;
  const olderType = avro.Type.forSchema(older as avro.Schema, { logicalTypes });
  const { idempotencyKey: _, ...olderEvent } = acceptedEvent(env, 'p1');
  await producer.send({
    topic,
    messages: [{ key: `${env.environmentId}:p1`, value: framed(olderId, olderType.toBuffer(olderEvent)) }],
  });
  await producer.disconnect();

  // The registry holds the subject, at BACKWARD, and the records carry its id.
  const latest = (await registryGet(`/subjects/${subject}/versions/latest`)) as {
    id: number;
    version: number;
  };
  expect(latest.version).toBe(1);
  expect(await registryGet(`/config/${subject}`)).toEqual({ compatibilityLevel: 'BACKWARD' });
  const messages = await rawMessages(kafka, topic, 5);
  expect(messages).toHaveLength(5);
  for (const [i, event] of plain.entries()) {
    const message = messages[i]!;
    expect(String(message.headers?.[SCHEMA_HEADER])).not.toContain('wire-format');
    expect(topics.eventsAccepted.type.fromBuffer(message.value!)).toEqual(event);
  }
  for (const [i, event] of framedEvents.entries()) {
    const message = messages[plain.length + i]!;
    expect(message.value![0]).toBe(0);
    expect(message.value!.readUInt32BE(1)).toBe(latest.id);
    expect(topics.eventsAccepted.type.fromBuffer(message.value!.subarray(5))).toEqual(event);
    expect(String(message.headers?.[SCHEMA_HEADER])).toBe(
      String(schemaHeaders(topics.eventsAccepted)[SCHEMA_HEADER]),
    );
    expect(String(message.headers?.[SCHEMA_HEADER])).toMatch(
      /^events\.accepted\.v1;fingerprint=\w+;wire-format=confluent$/,
    );
  }

  // A consumer of a process that has met none of these ids: it fetches the writer schemas once.
  stopSchemaRegistryMode();
  await startSchemaRegistryMode(settings(), { writes: [], topicPrefix: prefix, log });
  const consumed: AcceptedEvent[] = [];
  consumer = await startExactlyOnceConsumer<AcceptedEvent>({
    kafka,
    pool,
    log,
    groupId: `${prefix}registry-test`,
    topic,
    definition: topics.eventsAccepted,
    sessionTimeoutMs: 6_000,
    apply: async ({ records }) => {
      consumed.push(...records.map((record) => record.value));
    },
  });
  await eventually('all five records consumed', async () => (consumed.length >= 5 ? true : undefined));
  expect(consumed).toEqual([...plain, ...framedEvents, { ...olderEvent, idempotencyKey: null }]);
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM dead_letters WHERE topic = $1', [topic]);
  expect(rows[0].n).toBe(0);
});

it('refuses at start a schema the subject cannot take, another compatibility level, and a registry it cannot reach', async () => {
  const prefix = uniqueTopicPrefix();
  const subject = `${topicName(topics.eventsAccepted, prefix)}-value`;
  // The subject already holds a schema whose eventId is a long: the topic's string one cannot read it.
  const other = {
    type: 'record',
    name: 'engage.events.v1.AcceptedEvent',
    fields: [{ name: 'eventId', type: 'long' }],
  };
  expect(
    (await registryPost(`/subjects/${subject}/versions`, { schema: JSON.stringify(other) })).status,
  ).toBe(200);
  expect((await registryPost(`/config/${subject}`, { compatibility: 'BACKWARD' }, 'PUT')).status).toBe(200);

  const start = (registrySettings: SchemaRegistrySettings, topicPrefix = prefix) =>
    startSchemaRegistryMode(registrySettings, { writes: [topics.eventsAccepted], topicPrefix, log });
  await expect(start(settings())).rejects.toThrow(SchemaRegistryError);
  await expect(start(settings())).rejects.toThrow(
    `the schema registry refused the schema of ${subject} as incompatible with the versions it holds (compatibility BACKWARD)`,
  );
  expect(await registryGet(`/subjects/${subject}/versions`)).toEqual([1]);

  // A subject at NONE while the deployment asks for BACKWARD (Apicurio sets levels of existing subjects only).
  const relaxed = uniqueTopicPrefix();
  const relaxedSubject = `${topicName(topics.eventsAccepted, relaxed)}-value`;
  const ours = JSON.stringify(JSON.parse(schemaText(topics.eventsAccepted.schemaFile)));
  expect((await registryPost(`/subjects/${relaxedSubject}/versions`, { schema: ours })).status).toBe(200);
  expect((await registryPost(`/config/${relaxedSubject}`, { compatibility: 'NONE' }, 'PUT')).status).toBe(
    200,
  );
  await expect(start(settings(), relaxed)).rejects.toThrow(
    `the schema registry's subject ${relaxedSubject} has another compatibility level than SCHEMA_REGISTRY_COMPATIBILITY=BACKWARD`,
  );

  // Nothing listens on port 9 of the loopback address.
  await expect(
    start({ url: 'http://127.0.0.1:9/apis/ccompat/v7', compatibility: 'BACKWARD' }),
  ).rejects.toThrow(
    `cannot register the schema of ${subject} with the schema registry at http://127.0.0.1:9/apis/ccompat/v7`,
  );
});
