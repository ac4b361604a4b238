import {
  createTenant,
  type ServiceName,
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
 * Chaos under keyed load: every service (gateway, rules, ledger, query) is SIGKILLed several times
 * and restarted while clients send events, points adjustments and purchases, each with an
 * idempotency key and retried with it until the answer is definitive. Then the oracle: nothing lost
 * or doubled, no balance below zero, each balance the sum of its journal, the stock never oversold,
 * retries answered alike, and rules, ledger and query equal to a model fed the accepted operations
 * once. The schedule is seeded (CHAOS_SEED replays one); CHAOS_SOAK_MINUTES keeps killing for that
 * long instead of one short round.
 */

const SERVICES: ServiceName[] = ['gateway', 'rules', 'ledger', 'query'];
const KILLS_PER_SERVICE = 2;
const CLIENTS = 6;
const PLAYERS = Array.from({ length: 12 }, (_, i) => `chaos-${i}`);
const STOCK = 25;

const soakMinutes = Number(process.env.CHAOS_SOAK_MINUTES ?? 0);
const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

let stack: TestStack | undefined;
afterAll(() => stack?.stop());

describe('chaos: every service SIGKILLed under keyed load', () => {
  it(
    'loses, doubles and oversells nothing, keeps every balance at or above zero and its journal, and answers retries alike',
    async () => {
      console.log(
        `chaos seed ${seed} (CHAOS_SEED=${seed} replays the schedule)${soakMinutes ? `, soak ${soakMinutes} min` : ''}`,
      );
      const began = Date.now();
      stack = await startStack({ env: FAULT_STACK_ENV });
      const running = stack;
      const stackMs = Date.now() - began;
      const tenant = await createTenant(running.controlPlaneUrl, TEST_ADMIN_TOKEN, {
        definition: loadDefinition(STOCK),
      });
      const client = new RecordedClient(() => running.gatewayUrl, tenant.live.apiKey);
      await enterPlayers(client, PLAYERS);

      // The operations come from a source of their own, so the kill schedule replays whatever the clients' pace.
      const load = new KeyedLoad(PLAYERS, seededRandom(seed + 1), { events: 5, adjustment: 3, purchase: 2 });
      let stopping = false;
      const clients = Array.from({ length: CLIENTS }, () => load.drive(client, () => stopping));
      const kills: string[] = [];
      const random = seededRandom(seed);
      const started = Date.now();
      try {
        const until = started + soakMinutes * 60_000;
        // One kill at a time, each service in turn in a seeded order, each restart awaited: the load
        // keeps moving between kills (kills that overlap leave the gateway down most of the run).
        do {
          const order = SERVICES.flatMap((name) => Array<ServiceName>(KILLS_PER_SERVICE).fill(name));
          for (const name of shuffled(order, random)) {
            await new Promise((resolve) => setTimeout(resolve, 200 + random() * 1_000));
            kills.push(`${name}@${client.records.length}`);
            await running.services[name]!.kill('SIGKILL');
            await running.services[name]!.restart();
          }
        } while (Date.now() < until);
        // Load goes on a moment after the last restart, so the last process serves some of it.
        await client.answeredMore(CLIENTS * 4);
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
      console.log(JSON.stringify({ seed, kills, stackMs, loadMs, totalMs: Date.now() - began, ...report }));
      for (const service of Object.values(running.services))
        expect([service.name, service.isRunning()]).toEqual([service.name, true]);
    },
    (soakMinutes * 60 + 240) * 1_000,
  );
});

function shuffled<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
