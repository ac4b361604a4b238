import { topicName, topics } from '@engage/contracts';
import { consumerGroupId } from '@engage/kafka';
import {
  createTenant,
  eventually,
  type ServiceProcess,
  scrapeMetric,
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
 * Scale-out under keyed load: two replicas each of rules and query share the events topic's
 * partitions while clients send events, points adjustments and purchases. During the load one
 * replica of each is SIGKILLed and a new one added, so the partitions move between replicas twice
 * (the killed member's after its session times out, and again to the newcomer). Then the chaos
 * test's oracle: nothing lost or doubled, balances equal to the journal, progress and scores equal
 * to the model. SCALE_OUT_SEED replays the load.
 */

type Consumer = 'rules' | 'query';
const CONSUMERS: Consumer[] = ['rules', 'query'];
const CLIENTS = 6;
// Enough players that every one of the 3 partitions has some (12 leave one empty about 2 % of runs).
const PLAYERS = Array.from({ length: 24 }, (_, i) => `scale-${i}`);
const STOCK = 25;
/** Operations answered after the new replicas applied their first records, before the load stops. */
const OPERATIONS_AFTER_REBALANCE = 200;

const seed = Number(process.env.SCALE_OUT_SEED ?? Math.floor(Math.random() * 2 ** 31));

let stack: TestStack | undefined;
afterAll(() => stack?.stop());

describe('scale-out: replicas of rules and query killed and added under keyed load', () => {
  it('loses and doubles nothing while partitions move between replicas', async () => {
    console.log(`scale-out seed ${seed} (SCALE_OUT_SEED=${seed} replays the load)`);
    const began = Date.now();
    // A database of its own: the tickets a killed query replica leaves are for this stack's sweeper.
    stack = await startStack({ privateDatabase: true, env: FAULT_STACK_ENV });
    const running = stack;
    const [doomed, tenant] = await Promise.all([
      Promise.all(CONSUMERS.map((name) => running.addReplica(name))),
      createTenant(running.gatewayUrl, TEST_ADMIN_TOKEN, { definition: loadDefinition(STOCK) }),
    ]);
    const stackMs = Date.now() - began;
    const client = new RecordedClient(() => running.gatewayUrl, tenant.live.apiKey);
    await enterPlayers(client, PLAYERS);

    const load = new KeyedLoad(PLAYERS, seededRandom(seed), { events: 5, adjustment: 3, purchase: 2 });
    let stopping = false;
    const clients = Array.from({ length: CLIENTS }, () => load.drive(client, () => stopping));
    const steps: string[] = [];
    const started = Date.now();
    try {
      // Both replicas of each service share the work before one of them is killed (the gateway
      // forwards to the stack's first process, so the added one is the one killed).
      await Promise.all(doomed.map((replica) => appliesEvents(replica, running.topicPrefix)));
      steps.push(`both replicas applying@${client.records.length}`);
      const added = await Promise.all(
        CONSUMERS.map(async (name, i) => {
          await doomed[i]!.kill('SIGKILL');
          steps.push(`${name} replica killed@${client.records.length}`);
          const successor = await running.addReplica(name);
          steps.push(`${name} replica added@${client.records.length}`);
          return successor;
        }),
      );
      await Promise.all(added.map((replica) => appliesEvents(replica, running.topicPrefix)));
      steps.push(`new replicas applying@${client.records.length}`);
      const answered = client.records.length;
      while (client.records.length < answered + OPERATIONS_AFTER_REBALANCE)
        await new Promise((resolve) => setTimeout(resolve, 50));
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
      topicPrefix: running.topicPrefix,
      brokers: stackConfig().brokers,
      databaseUrl: running.databaseUrl,
    });
    console.log(JSON.stringify({ seed, steps, stackMs, loadMs, totalMs: Date.now() - began, ...report }));
    const processes = [...Object.values(running.services), ...running.replicas];
    expect(processes.map((p) => [p.name, p.isRunning()])).toEqual(
      processes.map((p) => [p.name, !doomed.includes(p)]),
    );
  }, 300_000);
});

/**
 * Waits until a replica has applied records of the events topic, which it does only on partitions
 * the group assigned to it.
 */
async function appliesEvents(replica: ServiceProcess, topicPrefix: string): Promise<void> {
  const labels = {
    group: consumerGroupId(replica.name, topicPrefix),
    topic: topicName(topics.eventsAccepted, topicPrefix),
  };
  await eventually(
    `the ${replica.name} replica on ${replica.url} to apply events`,
    async () =>
      ((await scrapeMetric(replica.metricsUrl, 'kafka_consumer_batch_records_sum', labels)) ?? 0) > 0
        ? true
        : undefined,
    { timeoutMs: 90_000, intervalMs: 250 },
  );
}
