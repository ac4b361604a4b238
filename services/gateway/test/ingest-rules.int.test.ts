import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../src/domain/quota.ts';
import { bearer, type InProcessGateway, readAcceptedEvents, startGateway } from './support.ts';

let gateway: InProcessGateway;
const definition = {
  discovery: false,
  events: [{ key: 'level_completed', properties: { level: { type: 'number' as const } } }],
};

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway?.close());

interface ItemResult {
  index: number;
  accepted: boolean;
  eventId: string | null;
  errors: { code: string }[];
}

async function send(apiKey: string, events: unknown[]) {
  const res = await gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: bearer(apiKey),
    payload: { events },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { accepted: number; rejected: number; results: ItemResult[] };
}

const level = (playerId: string, extra: Record<string, unknown> = {}) => ({
  eventKey: 'level_completed',
  playerId,
  properties: { level: 1 },
  ...extra,
});

describe('idempotency keys of event items', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
  });

  it('replays return the original eventId and write nothing; scope is player and event key', async () => {
    const key = tenant.live.apiKey;
    const first = await send(key, [
      level('ann', { idempotencyKey: 'k1' }),
      level('ann', { idempotencyKey: 'k1' }), // same key in the same batch: the same event
      level('bob', { idempotencyKey: 'k1' }), // another player: another write
      level('ann'), // no key: always a new write
    ]);
    expect(first.accepted).toBe(4);
    const [a, a2, b, plain] = first.results;
    expect(a2!.eventId).toBe(a!.eventId);
    expect(new Set([a!.eventId, b!.eventId, plain!.eventId]).size).toBe(3);

    const retry = await send(key, [level('ann', { idempotencyKey: 'k1' }), level('ann')]);
    expect(retry.results[0]!.eventId).toBe(a!.eventId);
    expect(retry.results[1]!.eventId).not.toBe(plain!.eventId);

    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId);
    const ids = records.map((r) => r.eventId);
    expect(ids.filter((id) => id === a!.eventId)).toHaveLength(1);
    expect(new Set(ids)).toEqual(
      new Set([a!.eventId, b!.eventId, plain!.eventId, retry.results[1]!.eventId]),
    );
    expect(records.find((r) => r.eventId === a!.eventId)?.idempotencyKey).toBe('k1');
  });

  it('a key left pending by a request that died is produced again with its original eventId', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const eventId = crypto.randomUUID();
    // The claim of a request that crashed before its record reached the broker.
    await gateway.pool.query(
      `INSERT INTO event_idempotency_keys (environment_id, player_id, event_key, idempotency_key, event_id, claimed_at)
       VALUES ($1, $2, 'level_completed', 'crashed', $3, now() - interval '1 hour')`,
      [tenant.live.environmentId, playerId, eventId],
    );
    const retry = await send(tenant.live.apiKey, [level(playerId, { idempotencyKey: 'crashed' })]);
    expect(retry.results[0]).toMatchObject({ accepted: true, eventId });
    const again = await send(tenant.live.apiKey, [level(playerId, { idempotencyKey: 'crashed' })]);
    expect(again.results[0]!.eventId).toBe(eventId);
    const { rows } = await gateway.pool.query(
      'SELECT state FROM event_idempotency_keys WHERE environment_id = $1 AND player_id = $2',
      [tenant.live.environmentId, playerId],
    );
    expect(rows).toEqual([{ state: 'committed' }]);
    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId);
    expect(records.filter((r) => r.eventId === eventId)).toHaveLength(1);
  });

  it('concurrent retries of one key agree on one eventId', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(tenant.live.apiKey, [level(playerId, { idempotencyKey: 'race' })]),
      ),
    );
    const ids = new Set(answers.map((a) => a.results[0]!.eventId));
    expect(ids.size).toBe(1);
    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId);
    expect(records.filter((r) => r.playerId === playerId)).toHaveLength(1);
  });
});

describe('usage limits', () => {
  it('a Sandbox admits 99 players a month: the 100th is refused item by item, exactly under concurrency', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
    const batch = (from: number) => Array.from({ length: 60 }, (_, i) => level(`player-${from + i}`));
    const [one, two] = await Promise.all([
      send(tenant.sandbox.apiKey, batch(0)),
      send(tenant.sandbox.apiKey, batch(60)),
    ]);
    expect(one.accepted + two.accepted).toBe(99);
    const refused = [...one.results, ...two.results].filter((r) => !r.accepted);
    expect(refused.map((r) => r.errors[0]?.code)).toEqual(
      Array(21).fill('sandbox.monthly_active_players_exceeded'),
    );
    // Players already active this month still send.
    const admittedPlayer = one.results[0]!.accepted ? 'player-0' : 'player-60';
    expect((await send(tenant.sandbox.apiKey, [level(admittedPlayer)])).accepted).toBe(1);
    const { rows } = await gateway.pool.query(
      `SELECT count(*)::int AS n FROM monthly_active_players WHERE environment_id = $1`,
      [tenant.sandbox.environmentId],
    );
    expect(rows[0].n).toBe(99);
  });

  it('a Sandbox admits 9,999 events a day: the 10,000th is refused', async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition });
    // 9,990 events taken earlier today.
    await gateway.pool.query(
      `INSERT INTO usage_counters (scope_id, metric, period, value) VALUES ($1, 'daily_events', $2, 9990)`,
      [tenant.sandbox.environmentId, dayOf(new Date())],
    );
    const answer = await send(
      tenant.sandbox.apiKey,
      Array.from({ length: 12 }, (_, i) => level(`p${i % 3}`)),
    );
    expect(answer.accepted).toBe(9);
    expect(answer.results.slice(9).map((r) => r.errors[0]?.code)).toEqual(
      Array(3).fill('sandbox.daily_event_limit_exceeded'),
    );
    expect((await send(tenant.sandbox.apiKey, [level('p0')])).accepted).toBe(0);
  });

  it("a Live environment refuses players past the organization's cap", async () => {
    const tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition,
      liveMonthlyActivePlayersCap: 3,
    });
    const answer = await send(
      tenant.live.apiKey,
      ['a', 'b', 'a', 'c', 'd', 'e'].map((p) => level(p)),
    );
    expect(answer.results.map((r) => r.accepted)).toEqual([true, true, true, true, false, false]);
    expect(answer.results[4]!.errors[0]!.code).toBe('monthly_mau_limit_exceeded');
    // A forwarded call naming a new player is refused the same way.
    const res = await gateway.app.inject({
      method: 'GET',
      url: '/v1/points?PlayerId=f',
      headers: bearer(tenant.live.apiKey),
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'monthly_mau_limit_exceeded']);
  });
});
