import type { AcceptedEvent } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { createLogger } from '@engage/kit';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ProducerThread,
  startProducerThread,
  startThreadedEventProducer,
} from '../src/events/threaded-event-producer.ts';
import { readAcceptedEvents } from './support.ts';

const { brokers } = stackConfig();
const log = createLogger('gateway-test', 'silent');
let topicPrefix: string;

beforeAll(async () => {
  topicPrefix = uniqueTopicPrefix();
  await createCatalogTopics(brokers, topicPrefix);
});

const records = (environmentId: string, count: number): AcceptedEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    eventId: crypto.randomUUID(),
    organizationId: environmentId,
    environmentId,
    environmentKind: 'Live',
    playerId: `player-${i % 7}`,
    eventKey: 'tick',
    occurredAt: '2026-01-02T03:04:05.678Z',
    receivedAt: '2026-01-02T03:04:05.678Z',
    timeZone: null,
    idempotencyKey: null,
    properties: { n: { type: 'Number', string: null, number: String(i), boolean: null, dateTime: null } },
  }));

describe('the event producer on its own thread', () => {
  const threads: ProducerThread[] = [];
  const startThread: typeof startProducerThread = async (...args) => {
    const thread = await startProducerThread(...args);
    threads.push(thread);
    return thread;
  };
  let producer: Awaited<ReturnType<typeof startThreadedEventProducer>>;
  beforeAll(async () => {
    producer = await startThreadedEventProducer(
      { brokers, clientId: 'gateway-test', topicPrefix, logLevel: 'silent', log },
      startThread,
    );
  });
  afterAll(async () => {
    await producer?.close();
  });

  it('answers each request once its own records are on the topic, exactly as sent', async () => {
    const environmentId = crypto.randomUUID();
    const requests = [records(environmentId, 300), records(environmentId, 5), records(environmentId, 120)];
    await Promise.all(requests.map((batch) => producer.send(batch)));
    const onTopic = await readAcceptedEvents(topicPrefix, environmentId);
    const sent = requests.flat();
    expect(onTopic).toHaveLength(sent.length);
    expect(new Map(onTopic.map((e) => [e.eventId, e]))).toEqual(new Map(sent.map((e) => [e.eventId, e])));
  });

  it('fails the requests in flight when its thread stops, and sends on a new thread afterwards', async () => {
    const environmentId = crypto.randomUUID();
    const inFlight = producer.send(records(environmentId, 500));
    await threads.at(-1)!.terminate();
    await expect(inFlight).rejects.toThrow(/producer thread/);

    const after = records(environmentId, 10);
    await producer.send(after);
    expect(threads).toHaveLength(2);
    const onTopic = new Set((await readAcceptedEvents(topicPrefix, environmentId)).map((e) => e.eventId));
    for (const event of after) expect(onTopic.has(event.eventId)).toBe(true);
  });
});
