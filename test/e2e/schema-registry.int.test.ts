import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { allTopics, topicName, topics } from '@engage/contracts';
import { type RunningRegistry, startRegistry } from '@engage/devstack';
import { createKafka } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import {
  createTenant,
  eventually,
  serviceEnv,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type TestStack,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD, loadDefinition, PLAY, REWARD_MISSIONS, TALLY_MISSIONS } from './support/keyed-load.ts';

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

    const tenant = await createTenant(running.gatewayUrl, TEST_ADMIN_TOKEN, {
      definition: loadDefinition(5),
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${running.gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${tenant.sandbox.apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const playerId = 'framed-1';
    expect((await call('POST', '/v1/missions', { playerId })).status).toBe(200);
    const firstSteps = REWARD_MISSIONS[0];
    const events = Array.from({ length: firstSteps.target }, (_, i) => ({
      eventKey: PLAY,
      playerId,
      properties: { value: i + 1 },
    }));
    const accepted = await call('POST', '/v1/events', { events });
    expect(accepted).toMatchObject({ status: 200, body: { accepted: events.length, rejected: 0 } });
    const score = events.reduce((sum, e) => sum + e.properties.value, 0);

    const missions = await eventually(
      'the rules service to apply the events',
      async () => {
        const { body } = await call('POST', '/v1/missions', { playerId });
        const byKey = new Map((body as Mission[]).map((m) => [m.missionKey, m]));
        return byKey.get(firstSteps.key)?.status === 'Completed' ? byKey : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(missions.get(TALLY_MISSIONS.count)?.objectives[0]?.progress.actual).toBe(events.length);
    expect(missions.get(TALLY_MISSIONS.sum)?.objectives[0]?.progress.actual).toBe(score);
    const points = await eventually(
      'the ledger to credit the reward',
      async () => {
        const { body } = await call('GET', `/v1/points?PlayerId=${playerId}`);
        return (body as { balance: number }).balance > 0 ? body : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(points).toMatchObject({ playerId, balance: firstSteps.points });
    const board = await eventually(
      'the query service to score the events',
      async () => {
        const { body } = await call('GET', `/v1/leaderboards/${BOARD}?PlayerId=${playerId}`);
        return (body as Board).leaderboard?.me ? (body as Board) : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(board.leaderboard?.me?.score).toBe(score);

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
    const child = spawn(
      process.execPath,
      [join(stackConfig().repoRoot, 'services', 'ledger', 'src', 'main.ts')],
      {
        cwd: stackConfig().repoRoot,
        env: {
          ...process.env,
          ...serviceEnv(uniqueTopicPrefix(), { SCHEMA_REGISTRY_URL: 'http://127.0.0.1:9/apis/ccompat/v7' }),
          PORT: '0',
          METRICS_PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);
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

interface Mission {
  missionKey: string;
  status: string;
  objectives: { progress: { actual: number } }[];
}

interface Board {
  leaderboard?: { me: { score: number } | null };
}
