import { topicName, topics } from '@engage/contracts';
import { consumerGroupId } from '@engage/kafka';
import {
  createTenant,
  eventually,
  type ServiceProcess,
  scrapeMetric,
  scrapeMetricSamples,
  seededRandom,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type TestStack,
} from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_STACK_ENV } from './support/fault-stack.ts';
import { enterPlayers, KeyedLoad, loadDefinition } from './support/keyed-load.ts';
import { checkOracle } from './support/oracle.ts';
import { RecordedClient } from './support/recorded-client.ts';

/**
 * Scale-out under keyed load: clients send events, points adjustments and purchases while rules and
 * query each run one replica, then a second one joins (the partitions are shared), is SIGKILLed once
 * it applies events (its partitions go back to a replica that applied them before), and a third one
 * joins. Then the chaos test's oracle: nothing lost or doubled, balances equal to the journal,
 * progress and scores equal to the model. SCALE_OUT_SEED replays the load.
 */

type Consumer = 'rules' | 'query';
const CONSUMERS: Consumer[] = ['rules', 'query'];
const CLIENTS = 6;
// Enough players that every one of the 3 partitions has some (12 leave one empty about 2 % of runs).
const PLAYERS = Array.from({ length: 24 }, (_, i) => `scale-${i}`);
const PARTITIONS = 3;
const STOCK = 25;
/** Operations answered after the last replicas applied their first records, before the load stops. */
const OPERATIONS_AFTER_REBALANCE = 200;

const seed = Number(process.env.SCALE_OUT_SEED ?? Math.floor(Math.random() * 2 ** 31));

let stack: TestStack | undefined;
afterAll(() => stack?.stop());

describe('scale-out: replicas of rules and query added and killed under keyed load', () => {
  // Eight service starts, most one after another: on a loaded 2-core machine each can take a minute.
  it('loses and doubles nothing while partitions move between replicas', async () => {
    console.log(`scale-out seed ${seed} (SCALE_OUT_SEED=${seed} replays the load)`);
    const began = Date.now();
    stack = await startStack({ env: FAULT_STACK_ENV });
    const running = stack;
    const prefix = running.topicPrefix;
    const tenant = await createTenant(running.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: loadDefinition(STOCK),
    });
    const stackMs = Date.now() - began;
    const client = new RecordedClient(() => running.gatewayUrl, tenant.live.apiKey);
    await enterPlayers(client, PLAYERS);

    const load = new KeyedLoad(PLAYERS, seededRandom(seed), { events: 5, adjustment: 3, purchase: 2 });
    let stopping = false;
    const clients = Array.from({ length: CLIENTS }, () => load.drive(client, () => stopping));
    const steps: string[] = [];
    const step = async (name: Consumer, what: string) => {
      const processes = [running.services[name]!, ...running.replicas.filter((r) => r.name === name)];
      const owners = await Promise.all(
        processes.map(async (p) => (p.isRunning() ? (await partitionsOf(p, prefix)).join('+') || '-' : 'x')),
      );
      steps.push(`${name} ${what}@${client.records.length}: partitions ${owners.join(' ')}`);
    };
    // Under the load: a second replica joins, is killed once it applies events, and a third joins.
    // The gateway forwards to the stack's first process, which stays.
    const scaleOutAndLoseOne = async (name: Consumer) => {
      const first = running.services[name]!;
      await eventually(
        `the first ${name} replica to apply events on every partition`,
        async () => ((await partitionsOf(first, prefix)).length === PARTITIONS ? true : undefined),
        { timeoutMs: 90_000, intervalMs: 250 },
      );
      const second = await running.addReplica(name);
      await appliesEvents(second, prefix);
      await step(name, 'second replica applying');
      await second.kill('SIGKILL');
      await step(name, 'second replica killed');
      const third = await running.addReplica(name);
      await appliesEvents(third, prefix);
      await step(name, 'third replica applying');
      return second;
    };
    const started = Date.now();
    let killed: ServiceProcess[] = [];
    try {
      killed = await Promise.all(CONSUMERS.map(scaleOutAndLoseOne));
      await client.answeredMore(OPERATIONS_AFTER_REBALANCE);
    } finally {
      stopping = true;
      await Promise.all(clients);
    }
    const loadMs = Date.now() - started;

    const report = await checkOracle({
      client,
      gatewayUrl: () => running.gatewayUrl,
      apiKey: tenant.live.apiKey,
      environmentId: tenant.live.environmentId,
      players: PLAYERS,
      stock: STOCK,
      topicPrefix: prefix,
      brokers: stackConfig().brokers,
      databaseUrl: running.databaseUrl,
    });
    console.log(JSON.stringify({ seed, steps, stackMs, loadMs, totalMs: Date.now() - began, ...report }));
    const processes = [...Object.values(running.services), ...running.replicas];
    expect(processes.map((p) => [p.name, p.isRunning()])).toEqual(
      processes.map((p) => [p.name, !killed.includes(p)]),
    );
  }, 600_000);
});

const eventsConsumer = (replica: ServiceProcess, prefix: string) => ({
  group: consumerGroupId(replica.name, prefix),
  topic: topicName(topics.eventsAccepted, prefix),
});

/** The partitions of the events topic a replica fetched from and the group still assigns it. */
async function partitionsOf(replica: ServiceProcess, prefix: string): Promise<number[]> {
  const lags = await scrapeMetricSamples(
    replica.metricsUrl,
    'kafka_consumer_lag_records',
    eventsConsumer(replica, prefix),
  );
  return lags.map((s) => Number(s.labels.partition)).sort((a, b) => a - b);
}

/** Waits until a replica has applied records of the events topic (on partitions the group gave it). */
async function appliesEvents(replica: ServiceProcess, prefix: string): Promise<void> {
  await eventually(
    `the ${replica.name} replica on ${replica.url} to apply events`,
    async () => {
      const applied = await scrapeMetric(
        replica.metricsUrl,
        'kafka_consumer_batch_records_sum',
        eventsConsumer(replica, prefix),
      );
      return (applied ?? 0) > 0 ? true : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 250 },
  );
}
