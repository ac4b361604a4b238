import { allTopics, topicName, topics } from '@engage/contracts';
import { type RunningRegistry, startRegistry } from '@engage/devstack';
import { createKafka } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { stackConfig, startStack, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAndWaitForExit, walkOnePlayer } from './support/one-player.ts';

/**
 * The whole pipeline with every service in registry mode, against a real Apicurio Registry: each
 * registers the subjects of the topics it writes at start, the records on the topics are in the
 * Confluent wire format, and an event still becomes mission progress, reward points and a score.
 * A registry that does not answer stops a service at start with the cause.
 */

let registry: RunningRegistry;
let stack: TestStack | undefined;

beforeAll(async () => {
  registry = await startRegistry({ log: (line) => process.stdout.write(`[registry] ${line}\n`) });
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await registry?.stop();
});

describe('every service in registry mode', () => {
  it('runs an event through all four services in the Confluent wire format', async () => {
    stack = await startStack({ env: { SCHEMA_REGISTRY_URL: registry.url } });
    const running = stack;
    const prefix = running.topicPrefix;
    const subjects = (await (await fetch(`${registry.url}/subjects`)).json()) as string[];
    expect(subjects.filter((subject) => subject.startsWith(prefix)).sort()).toEqual(
      allTopics()
        .map((def) => `${topicName(def, prefix)}-value`)
        .sort(),
    );

    await walkOnePlayer(running, 'framed-1');

    // What went over Kafka: framed under the ids the registry holds for each topic's subject.
    for (const def of [topics.eventsAccepted, topics.rewardsGranted, topics.pointsJournal]) {
      const topic = topicName(def, prefix);
      const { id } = (await (
        await fetch(`${registry.url}/subjects/${topic}-value/versions/latest`)
      ).json()) as {
        id: number;
      };
      const first = await firstValue(topic);
      expect({ topic, magic: first[0], id: first.readUInt32BE(1) }).toEqual({ topic, magic: 0, id });
    }
    for (const service of Object.values(running.services))
      expect(service.logs()).not.toMatch(/"level":(50|60)/);
  }, 300_000);

  it('stops a service at start with the cause when the registry does not answer', async () => {
    const { code, output } = await startAndWaitForExit(
      'ledger',
      { SCHEMA_REGISTRY_URL: 'http://127.0.0.1:9/apis/ccompat/v7' },
      60_000,
    );
    expect(code).toBe(1);
    expect(output).toContain('cannot register the schema of');
    expect(output).toContain('with the schema registry at http://127.0.0.1:9/apis/ccompat/v7');
  });
});

/** The value of the first record of `topic` (any partition). */
async function firstValue(topic: string): Promise<Buffer> {
  const kafka = createKafka({
    brokers: stackConfig().brokers,
    clientId: 'registry-e2e',
    log: createLogger('test', 'error'),
  });
  const consumer = kafka.consumer({ groupId: `raw-${crypto.randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const { promise, resolve } = Promise.withResolvers<Buffer>();
  await consumer.run({
    eachMessage: async ({ message }) => {
      if (message.value) resolve(message.value);
    },
  });
  const value = await promise;
  await consumer.disconnect();
  return value;
}
