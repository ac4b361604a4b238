import { type LinkedBrokers, type PrivateKafka, startPrivateKafka } from '@engage/devstack';
import {
  createTenant,
  schemaPool,
  seededRandom,
  startStack,
  TEST_ADMIN_TOKEN,
  type TestStack,
} from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { enterPlayers, KeyedLoad, loadDefinition } from './support/keyed-load.ts';
import { checkOracle } from './support/oracle.ts';
import { RecordedClient } from './support/recorded-client.ts';

/**
 * Kafka out of reach under keyed load, for the consumers and outbox relays of rules, ledger and
 * query (the gateway's own producer has its tests in services/gateway). The stack runs on a broker
 * of this test's own; rules, ledger and query reach it through a link the test can cut, the gateway
 * directly. Two outages:
 * 1. the link is cut: the consumers and relays lose the broker while the gateway goes on accepting
 *    events and the ledger and rules go on writing outbox rows (adjustments, purchases, mission
 *    entries of new players), then the link comes back;
 * 2. the broker is killed (SIGKILL) and started again: everything loses it, the gateway refuses
 *    events (clients retry with their keys) while the ledger goes on taking adjustments.
 * Then the oracle: every accepted event applied once (missions, reward points, board scores equal
 * the model), every outbox row on its topic, and no process died.
 */

const CLIENTS = 4;
const PLAYERS = Array.from({ length: 10 }, (_, i) => `outage-${i}`);
/** Entered into the missions while the link is cut: their entries wait in the rules outbox. */
const LATE_PLAYERS = Array.from({ length: 4 }, (_, i) => `late-${i}`);
const STOCK = 15;
const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));

let broker: PrivateKafka | undefined;
let stack: TestStack | undefined;
afterAll(async () => {
  await broker?.link?.restore();
  await stack?.stop();
  await broker?.destroy();
});

async function outboxBacklog(databaseUrl: string) {
  const backlog: Record<string, boolean> = {};
  for (const schema of ['ledger', 'rules'] as const) {
    const pool = schemaPool(schema, databaseUrl);
    try {
      backlog[schema] = (await pool.query('SELECT 1 FROM outbox LIMIT 1')).rows.length > 0;
    } finally {
      await pool.end();
    }
  }
  return backlog;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('broker outage under keyed load: consumers and outbox relays', () => {
  it('applies every accepted event once and publishes every outbox row once the broker is back', async () => {
    console.log(`broker outage seed ${seed} (FAULT_SEED=${seed} replays the load)`);
    const kafka = await startPrivateKafka({ link: true });
    broker = kafka;
    const link: LinkedBrokers = kafka.link!;
    stack = await startStack({
      brokers: kafka.brokers,
      serviceBrokers: link.brokers,
      serviceEnv: { gateway: { KAFKA_BROKERS: kafka.brokers.join(',') } },
      env: {
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        IDEMPOTENCY_PENDING_TIMEOUT_MS: '2000',
      },
    });
    const running = stack;
    const tenant = await createTenant(running.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: loadDefinition(STOCK),
    });
    const client = new RecordedClient(() => running.gatewayUrl, tenant.live.apiKey);
    await enterPlayers(client, PLAYERS);

    const load = new KeyedLoad(PLAYERS, seededRandom(seed), { events: 5, adjustment: 3, purchase: 1 });
    let stopping = false;
    const clients = Array.from({ length: CLIENTS }, () => load.drive(client, () => stopping));
    const answered = (kind: string, outcome = 'ok') =>
      client.records.filter((r) => r.kind === kind && r.final.outcome === outcome).length;
    const attemptsFailed = () => client.unknownAnswers;
    const progress = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 120_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`no progress: ${what}`);
        await settle(50);
      }
    };
    const timeline: string[] = [];
    const started = Date.now();
    const mark = (what: string) => timeline.push(`${what} +${Date.now() - started} ms`);

    try {
      const flowing = (n: number) => {
        const [events, adjustments] = [answered('events'), answered('adjustment')];
        return progress(
          'load going',
          () => answered('events') >= events + n && answered('adjustment') >= adjustments + n,
        );
      };
      await flowing(5);

      // 1. The link is cut: only the gateway still reaches the broker.
      link.cut();
      mark('link cut');
      const [events, adjustments] = [answered('events'), answered('adjustment')];
      await enterPlayers(client, LATE_PLAYERS);
      await progress(
        'events and adjustments answered while the link is cut',
        () => answered('events') >= events + 20 && answered('adjustment') >= adjustments + 10,
      );
      // Long enough for every Kafka client behind the link to have failed requests and reconnects.
      await settle(8_000);
      // The relays were cut off indeed: what the ledger and rules wrote meanwhile waits in their outboxes.
      expect(await outboxBacklog(running.databaseUrl)).toEqual({ ledger: true, rules: true });
      await link.restore();
      mark('link restored');
      await flowing(5);

      // 2. The broker dies; the gateway refuses events until it is back.
      await kafka.stop('SIGKILL');
      mark('broker killed');
      const failed = attemptsFailed();
      await progress('attempts refused while the broker is down', () => attemptsFailed() >= failed + 2);
      await kafka.start();
      mark('broker restarted');
      await flowing(10);
    } finally {
      stopping = true;
      await Promise.all(clients);
    }
    mark('load stopped');

    const report = await checkOracle({
      client,
      gatewayUrl: () => running.gatewayUrl,
      apiKey: tenant.live.apiKey,
      environmentId: tenant.live.environmentId,
      players: [...PLAYERS, ...LATE_PLAYERS],
      stock: STOCK,
      topicPrefix: running.topicPrefix,
      brokers: kafka.brokers,
      databaseUrl: running.databaseUrl,
    });
    mark('oracle');
    console.log(JSON.stringify({ seed, timeline, ...report }));
    for (const service of Object.values(running.services))
      expect([service.name, service.isRunning()]).toEqual([service.name, true]);
  }, 420_000);
});
