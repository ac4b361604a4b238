import { fetchAsGateway, internalHeaders, randomEnvironment, schemaPool } from '@engage/testkit';
import { acceptedEvent, connectEventsProducer } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { appliedActivity, expectedActivity, freshTopics, spawnRules, waitUntilConsumed } from './support.ts';

const pool = schemaPool('rules');
afterAll(() => pool.end());

describe('rules consumes accepted events', () => {
  it('counts every event of every player exactly once, in produce order', async () => {
    const prefix = await freshTopics();
    const env = randomEnvironment();
    const producer = await connectEventsProducer(prefix);
    const players = Array.from({ length: 8 }, (_, i) => `player-${i}`);
    const produced = players.flatMap((player, i) =>
      Array.from({ length: 10 + i * 7 }, () => acceptedEvent(env, player)),
    );
    await producer.send(produced);
    await producer.close();

    const rules = await spawnRules(prefix);
    try {
      await waitUntilConsumed(pool, prefix, produced.length);
      expect(await appliedActivity(pool, env.environmentId)).toEqual(expectedActivity(produced));

      const last = produced.filter((e) => e.playerId === 'player-3').at(-1)!;
      const res = await fetchAsGateway(`${rules.url}/internal/v1/players/player-3/activity`, {
        headers: internalHeaders(env),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        playerId: 'player-3',
        eventsApplied: 31,
        lastEventId: last.eventId,
        lastOccurredAtUtc: last.occurredAt,
      });
      const unseen = await fetchAsGateway(`${rules.url}/internal/v1/players/nobody/activity`, {
        headers: internalHeaders(env),
      });
      expect(await unseen.json()).toMatchObject({ playerId: 'nobody', eventsApplied: 0, lastEventId: null });
    } finally {
      await rules.stop();
    }
  });
});
