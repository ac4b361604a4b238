import type { AcceptedEvent } from '@engage/contracts';
import { MissionsSectionSchema } from '@engage/contracts/environment/missions.ts';
import type { ConsumedRecord } from '@engage/kafka';
import { createPool, withTransaction } from '@engage/postgres';
import { randomEnvironment, stackConfig } from '@engage/testkit';
import { acceptedEvent, eventually } from '@engage/testkit/events.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { applyAcceptedEvents, keepApplied } from '../src/application/apply-events.ts';
import { applyRulesSection } from '../src/application/definitions.ts';
import { ProgressCache } from '../src/application/progress-cache.ts';
import { RulesCache } from '../src/application/rules-cache.ts';
import type { MissionEntry } from '../src/domain/missions.ts';
import { findActivity } from '../src/store/activity.ts';
import { findProgress, lockProgress, saveProgress } from '../src/store/progress.ts';

// A pipelining pool, as the service's; named, so the test finds its own backend waiting on a lock
// and not another file's rules process's.
const applicationName = `rules-apply-test-${crypto.randomUUID().slice(0, 8)}`;
const pool = createPool({
  url: stackConfig().databaseUrl,
  schema: 'rules',
  max: 4,
  pipeline: true,
  applicationName,
});
afterAll(() => pool.end());

const MISSIONS = MissionsSectionSchema.parse([
  { key: 'levels', name: 'Levels', objectives: [{ key: 'n', event: 'level_completed', target: 1_000 }] },
  { key: 'later', name: 'Later', objectives: [{ key: 'm', event: 'shop_visited', target: 5 }] },
]);

const record = (event: AcceptedEvent, offset: number): ConsumedRecord<AcceptedEvent> => ({
  partition: 0,
  offset: String(offset),
  key: `${event.environmentId}:${event.playerId}`,
  value: event,
  headers: {},
  timestamp: '0',
  raw: Buffer.alloc(0),
});

describe('applying events over players a request writes at the same time', () => {
  it('folds again from what the request committed: neither its change nor the events are lost', async () => {
    const env = randomEnvironment();
    const ref = { environmentId: env.environmentId, playerId: 'raced' };
    await applyRulesSection(pool, env.environmentId, 'missions', MISSIONS, false);
    const now = new Date().toISOString();
    const entered: MissionEntry = {
      occurrence: 1,
      enteredAt: now,
      acceptedAt: null,
      countingSince: now,
      completedAt: null,
      completionShown: false,
      objectives: { n: { value: 0 } },
    };
    await withTransaction(pool, async (client) => {
      const [locked] = await lockProgress(client, [ref]);
      await saveProgress(client, [{ ...locked!, missions: { levels: entered } }]);
    });
    const deps = {
      rules: new RulesCache(),
      progress: new ProgressCache(1024 * 1024),
      topicPrefix: 'apply-test.',
    };
    const first = acceptedEvent(env, ref.playerId);
    keepApplied(
      deps,
      await withTransaction(pool, (client) => applyAcceptedEvents(deps, client, [record(first, 0)])),
    );

    // A request holds the player's row, enters them into a second mission (their counters get a
    // second slot) and changes their first entry; the consumer, holding the player as it committed
    // them, does not read them and meets the row at its write.
    const request = await pool.connect();
    const acceptedAt = '2026-01-01T00:00:00.000Z';
    try {
      await request.query('BEGIN');
      const [locked] = await lockProgress(request, [ref]);
      const later = { ...entered, objectives: { m: { value: 0 } } };
      await saveProgress(request, [
        { ...locked!, missions: { levels: { ...locked!.missions.levels!, acceptedAt }, later } },
      ]);
      const second = acceptedEvent(env, ref.playerId);
      const applying = withTransaction(pool, (client) =>
        applyAcceptedEvents(deps, client, [record(second, 1)]),
      );
      await eventually('the consumer waiting on the row the request holds', async () => {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE '%UPDATE player_counters%'`,
          [applicationName],
        );
        return rows[0]!.n > 0 ? true : undefined;
      });
      await request.query('COMMIT');
      await applying;
      const { missions } = await findProgress(pool, ref);
      expect(missions).toEqual({
        levels: { ...entered, acceptedAt, objectives: { n: { value: 2 } } },
        later: { ...entered, objectives: { m: { value: 0 } } },
      });
      expect(await findActivity(pool, ref)).toMatchObject({ eventsApplied: 2, lastEventId: second.eventId });
    } finally {
      request.release();
    }
  });
});
