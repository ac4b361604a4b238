import { type AcceptedEvent, topics } from '@engage/contracts';
import { randomEnvironment, type ServiceProcess, schemaPool } from '@engage/testkit';
import { acceptedEvent, connectEventsProducer, eventually } from '@engage/testkit/events.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySection, freshTopics, readTopic, spawnRules, waitUntilConsumed } from './support.ts';

/**
 * A streak's break on rules.progress.v1: the rules service in its own process consumes events from
 * the real topic and its relay publishes the steps, read back from Kafka.
 */

const pool = schemaPool('rules');
let prefix: string;
let rules: ServiceProcess;
let produced = 0;

beforeAll(async () => {
  prefix = await freshTopics();
  rules = await spawnRules(prefix);
});
afterAll(async () => {
  await rules?.stop();
  await pool.end();
});

async function send(events: AcceptedEvent[]) {
  const producer = await connectEventsProducer(prefix);
  await producer.send(events);
  await producer.close();
  produced += events.length;
  await waitUntilConsumed(pool, prefix, produced);
}

const DAY = 86_400_000;

describe('rules.progress.v1: streak breaks', () => {
  it('reports the ended run (its count, last day and end) before the step that starts the next one', async () => {
    const env = randomEnvironment();
    const applied = await applySection(rules.url, env, 'streaks', [
      {
        key: 'daily-play',
        name: { defaultLocale: 'en', translations: { en: 'Daily play' } },
        events: [{ event: 'level_completed', filters: [] }],
        eventsPerPeriod: 1,
        period: 'daily',
        milestones: [],
      },
    ]);
    expect(applied.status).toBe(200);

    // Days in the future of a UTC midnight: two in a row, a gap of two days, then one more.
    const midnight = Math.floor(Date.now() / DAY) * DAY + 10 * DAY;
    const on = (day: number) => {
      const at = new Date(midnight + day * DAY + 12 * 3_600_000).toISOString();
      return { ...acceptedEvent(env, 'p-1'), occurredAt: at, receivedAt: at, timeZone: 'UTC' };
    };
    const days = [on(0), on(1), on(4)];
    await send(days);

    const dateOf = (day: number) => new Date(midnight + day * DAY).toISOString().slice(0, 10);
    const steps = await eventually('the streak steps on rules.progress.v1', async () => {
      const records = (await readTopic(prefix, topics.rulesProgress)).filter(
        (r) => r.environmentId === env.environmentId && r.subjectKey === 'daily-play',
      );
      return records.length >= 4 ? records : undefined;
    });
    expect(
      steps.map((r) => [r.kind, r.occurrenceNumber, r.value, r.localDate, r.endedAt, r.causeEventId]),
    ).toEqual([
      ['StreakExtended', 1, 1, dateOf(0), null, days[0]!.eventId],
      ['StreakExtended', 1, 2, dateOf(1), null, days[1]!.eventId],
      // The run of days 0 and 1 ended when day 3 began (day 2 was its last chance).
      ['StreakBroken', 1, 2, dateOf(1), new Date(midnight + 3 * DAY).toISOString(), days[2]!.eventId],
      ['StreakExtended', 2, 1, dateOf(4), null, days[2]!.eventId],
    ]);
  });
});
