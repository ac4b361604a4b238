import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import {
  createKafka,
  decodeRecord,
  parseSchemaHeader,
  SCHEMA_HEADER,
  schemaFingerprint,
} from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { createTenant, stackConfig, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, startGateway } from './support.ts';

let gateway: InProcessGateway;
let tenant: Tenant;

const definition = {
  discovery: false,
  events: [
    {
      key: 'level_completed',
      properties: { level: { type: 'number' as const, required: true }, score: { type: 'number' as const } },
    },
  ],
};

beforeAll(async () => {
  gateway = await startGateway();
  tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
});
afterAll(() => gateway?.close());

const send = (body: string, key = tenant.sandbox.apiKey) =>
  gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: body,
  });

const kafkajsPartitioner = Partitioners.DefaultPartitioner();
/**
 * The partition kafkajs's default partitioner gives a key: every producer of the topic (the
 * gateway's, the kafkajs-based tools and services) must agree, so a player's events stay in order.
 */
const kafkajsPartitionOf = (topic: string, partitionMetadata: PartitionMetadata[], key: string) =>
  kafkajsPartitioner({ topic, partitionMetadata, message: { key, value: null } });

/**
 * Reads the topic from the beginning until `count` records of this environment were seen; checks
 * each record's key, headers and partition on the way.
 */
async function readAccepted(environmentId: string, count: number): Promise<AcceptedEvent[]> {
  const kafka = createKafka({
    brokers: stackConfig().brokers,
    clientId: 'events-test',
    log: createLogger('t', 'silent'),
  });
  const topic = topicName(topics.eventsAccepted, gateway.topicPrefix);
  // The topic's own partitions: test stacks may create it with fewer than the catalog's.
  const admin = kafka.admin();
  await admin.connect();
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] }).finally(() => admin.disconnect());
  const partitions = metadata.topics[0]!.partitions;
  const consumer = kafka.consumer({ groupId: `test-${crypto.randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const seen: AcceptedEvent[] = [];
  const misplaced: { key: string; partition: number }[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ topic, partition, message }) => {
            const event = decodeRecord(topics.eventsAccepted, message.value!);
            expect(message.key?.toString()).toBe(`${event.environmentId}:${event.playerId}`);
            const key = message.key!.toString();
            if (partition !== kafkajsPartitionOf(topic, partitions, key)) misplaced.push({ key, partition });
            // One header names the writer's schema (docs/topics.md); the other is the trace.
            expect(Object.keys(message.headers ?? {}).sort()).toEqual([SCHEMA_HEADER, 'traceparent']);
            expect(parseSchemaHeader(message.headers?.[SCHEMA_HEADER] as Buffer)).toEqual({
              name: topics.eventsAccepted.base,
              fingerprint: schemaFingerprint(topics.eventsAccepted),
            });
            if (event.environmentId === environmentId) seen.push(event);
            if (seen.length >= count) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  expect(misplaced).toEqual([]);
  return seen;
}

describe('POST /v1/events', () => {
  it('produces accepted items to the topic with exact decimals, and leaves refused ones out', async () => {
    const res = await send(
      JSON.stringify({
        events: [
          {
            eventKey: 'level_completed',
            playerId: 'alice',
            properties: { level: 1, score: 0.5 },
            timeZone: 'Europe/Paris',
          },
          { eventKey: 'level_completed', playerId: 'bob', properties: { level: 'two' } },
          { eventKey: 'unknown_event', playerId: 'bob' },
          {},
        ],
      }).replace('"score":0.5', '"score":12345678901234567890.12345678'),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ accepted: 1, rejected: 3 });
    expect(body.results.map((r: { errors: { code: string }[] }) => r.errors.map((e) => e.code))).toEqual([
      [],
      ['event.property_type_mismatch'],
      ['event.not_found'],
      ['event.item_missing'],
    ]);
    expect(body.results[1].eventId).toBeNull();

    const [record] = await readAccepted(tenant.sandbox.environmentId, 1);
    expect(record).toMatchObject({
      eventId: body.results[0].eventId,
      organizationId: tenant.organizationId,
      environmentKind: 'Sandbox',
      playerId: 'alice',
      eventKey: 'level_completed',
      timeZone: 'Europe/Paris',
      idempotencyKey: null,
    });
    expect(record!.properties.score?.number).toBe('12345678901234567890.12345678');
    expect(record!.properties.level?.number).toBe('1');

    const { rows } = await gateway.pool.query(
      'SELECT external_id, time_zone FROM players WHERE environment_id = $1 ORDER BY external_id',
      [tenant.sandbox.environmentId],
    );
    expect(rows).toEqual([{ external_id: 'alice', time_zone: 'Europe/Paris' }]);
  });

  it('puts every player on the partition kafkajs would (checked for each record read)', async () => {
    const players = Array.from({ length: 200 }, (_, i) => `partitioned-${i}`);
    const res = await send(
      JSON.stringify({
        events: players.map((playerId) => ({
          eventKey: 'level_completed',
          playerId,
          properties: { level: 1 },
        })),
      }),
      tenant.live.apiKey,
    );
    expect(res.json()).toMatchObject({ accepted: 200 });
    const records = await readAccepted(tenant.live.environmentId, 200);
    expect(new Set(records.map((r) => r.playerId))).toEqual(new Set(players));
  });

  it('refuses an empty and an oversized batch with 400', async () => {
    const empty = await send('{"events":[]}');
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'event_batch.empty']);
    const many = Array.from({ length: 1001 }, () => ({ eventKey: 'level_completed', playerId: 'p' }));
    const large = await send(JSON.stringify({ events: many }));
    expect([large.statusCode, large.json().code]).toEqual([400, 'event_batch.too_large']);
    const notArray = await send('{"events":{}}');
    expect([notArray.statusCode, notArray.json().code]).toEqual([400, 'validation.events']);
  });

  it('defines unknown events with discovery on', async () => {
    const discovering = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: { discovery: true },
    });
    const first = await send(
      '{"events":[{"eventKey":"found","playerId":"p","properties":{"n":1.25,"when":"2030-01-01T00:00:00Z"}}]}',
      discovering.sandbox.apiKey,
    );
    expect(first.json().accepted).toBe(1);
    const { rows } = await gateway.pool.query(
      'SELECT properties, discovered FROM event_definitions WHERE environment_id = $1 AND event_key = $2',
      [discovering.sandbox.environmentId, 'found'],
    );
    expect(rows[0]).toEqual({
      discovered: true,
      properties: { n: { type: 'number', required: false }, when: { type: 'string', required: false } },
    });
    const second = await send(
      '{"events":[{"eventKey":"found","playerId":"p","properties":{"n":"x"}}]}',
      discovering.sandbox.apiKey,
    );
    expect(second.json().results[0].errors[0].code).toBe('event.property_type_mismatch');
  });

  it('creates a player on first sight exactly once under concurrency', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const body = JSON.stringify({
      events: [{ eventKey: 'level_completed', playerId, properties: { level: 1 } }],
    });
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(body)));
    expect(answers.map((a) => a.json().accepted)).toEqual(Array(8).fill(1));
    const { rows } = await gateway.pool.query(
      'SELECT count(*)::int AS n FROM players WHERE environment_id = $1 AND external_id = $2',
      [tenant.sandbox.environmentId, playerId],
    );
    expect(rows[0].n).toBe(1);
  });
});
