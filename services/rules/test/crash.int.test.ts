import type { AcceptedEvent } from '@engage/contracts';
import { randomEnvironment, schemaPool } from '@engage/testkit';
import { connectEventsProducer, eventually } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { enterPlayers, expectProgressExactlyOnce, progressEvent } from './progress-model.ts';
import {
  appliedActivity,
  consumedRecords,
  expectedActivity,
  freshTopics,
  seededRandom,
  spawnRules,
  waitUntilConsumed,
} from './support.ts';

const pool = schemaPool('rules');
afterAll(() => pool.end());

const KILLS = 4;
const PLAYERS = 24;
const MIN_EVENTS = 4_000;

describe('rules under SIGKILL', () => {
  it('applies every event exactly once, in order, however often the consumer dies mid-batch: activity, missions, streaks and rewards', async () => {
    const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`rules crash test seed: ${seed} (FAULT_SEED=${seed} replays the schedule)`);
    const random = seededRandom(seed);
    const prefix = await freshTopics();
    const env = randomEnvironment();
    const producer = await connectEventsProducer(prefix);
    const rules = await spawnRules(prefix);
    const players = Array.from({ length: PLAYERS }, (_, i) => `player-${i}`);
    const snapshot = await enterPlayers(rules.url, pool, env, players);
    const produced: AcceptedEvent[] = [];
    let killing = true;

    const produce = async () => {
      while (killing || produced.length < MIN_EVENTS) {
        const batch = Array.from({ length: 50 }, (_, i) =>
          progressEvent(env, players[Math.floor(random() * PLAYERS)]!, produced.length + i, random),
        );
        await producer.send(batch);
        produced.push(...batch);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const kill = async () => {
      try {
        for (let i = 0; i < KILLS; i++) {
          // Kill only once this process has committed something: it is then working through the
          // backlog that piled up while the group waited for the previous, dead member.
          const before = await consumedRecords(pool, prefix);
          await eventually('the restarted consumer to commit', async () =>
            (await consumedRecords(pool, prefix)) > before ? true : undefined,
          );
          await new Promise((resolve) => setTimeout(resolve, 20 + random() * 400));
          await rules.kill('SIGKILL');
          await rules.restart();
        }
      } finally {
        killing = false;
      }
    };

    try {
      await Promise.all([produce(), kill()]);
      await producer.close();
      await waitUntilConsumed(pool, prefix, produced.length);
      const applied = await appliedActivity(pool, env.environmentId);
      expect(applied).toEqual(expectedActivity(produced));
      await expectProgressExactlyOnce(pool, prefix, snapshot, produced);
    } finally {
      await rules.stop();
    }
  }, 120_000);
});
