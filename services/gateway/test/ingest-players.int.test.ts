import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthOf } from '../src/domain/quota.ts';
import {
  bearer,
  type InProcessGateway,
  readAcceptedEvents,
  recordStatements,
  startGateway,
} from './support.ts';

/** Two replicas of the gateway on one database: what one admits, the other only reads. */
let one: InProcessGateway;
let two: InProcessGateway;
let tenant: Tenant;

beforeAll(async () => {
  one = await startGateway();
  // On the same topics: the second learns the keys the first's admin API creates.
  two = await startGateway({ topicPrefix: one.topicPrefix });
  tenant = await createTenant(one.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: { discovery: false, events: [{ key: 'level_completed', properties: {} }] },
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

const event = (playerId: string, extra: Record<string, unknown> = {}) => ({
  eventKey: 'level_completed',
  playerId,
  ...extra,
});

async function send(gateway: InProcessGateway, events: unknown[]) {
  const res = await gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: bearer(tenant.live.apiKey),
    payload: { events },
  });
  expect(res.statusCode).toBe(200);
  const answer = res.json() as { accepted: number };
  expect(answer.accepted).toBe(events.length);
}

/** Statements about players, their months and the usage counters (not keys or definitions). */
const aboutPlayers = (statements: string[]) =>
  statements.filter((s) => /players|usage_counters|^\s*(BEGIN|COMMIT)/i.test(s));
/** Writes of any kind but the API key's last use (authentication's own). */
const writes = (statements: string[]) =>
  statements.filter((s) => /^\s*(BEGIN|INSERT|UPDATE|DELETE|WITH)/i.test(s) && !s.includes('api_keys'));

async function activeMonths(playerId: string): Promise<string[]> {
  const { rows } = await one.pool.query<{ month: string }>(
    `SELECT to_char(month, 'YYYY-MM-DD') AS month FROM monthly_active_players
     WHERE environment_id = $1 AND external_id = $2 ORDER BY month`,
    [tenant.live.environmentId, playerId],
  );
  return rows.map((r) => r.month);
}

async function playersCounted(month: string): Promise<number> {
  const { rows } = await one.pool.query<{ value: number }>(
    `SELECT value FROM usage_counters WHERE scope_id = $1 AND metric = 'monthly_active_players' AND period = $2`,
    [tenant.organizationId, month],
  );
  return rows[0]?.value ?? 0;
}

const ids = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${i}-${crypto.randomUUID()}`);

describe('players of an event batch', () => {
  it('players this replica knows for the month cost no statement', async () => {
    const players = ids('known', 5);
    await send(
      one,
      players.map((p) => event(p)),
    );
    const statements = recordStatements(one);
    await send(
      one,
      players.map((p) => event(p)),
    );
    expect(aboutPlayers(statements)).toEqual([]);
  });

  it('players created and counted through another replica cost one read and no write', async () => {
    const players = ids('elsewhere', 50);
    await send(
      one,
      players.map((p, i) => event(p, i === 0 ? { timeZone: 'Europe/Paris' } : {})),
    );
    const month = monthOf(new Date());
    const counted = await playersCounted(month);

    const statements = recordStatements(two);
    await send(
      two,
      players.map((p) => event(p)),
    );
    const ofPlayers = aboutPlayers(statements);
    expect(ofPlayers).toHaveLength(1);
    expect(ofPlayers[0]).toMatch(/^\s*SELECT/);
    expect(writes(statements)).toEqual([]);
    // Known to the second replica from now on: no statement at all.
    await send(
      two,
      players.map((p) => event(p)),
    );
    expect(aboutPlayers(statements)).toHaveLength(1);
    expect(await playersCounted(month)).toBe(counted);

    // The zone stored through the first replica reaches the records the second one produces.
    const records = await readAcceptedEvents(two.topicPrefix, tenant.live.environmentId);
    const zones = new Set(records.filter((r) => r.playerId === players[0]).map((r) => r.timeZone));
    expect(zones).toEqual(new Set(['Europe/Paris']));
  });

  it('only players new to the month are admitted, each counted once', async () => {
    const [known, returning, brandNew] = ids('mix', 3) as [string, string, string];
    await send(two, [event(known)]);
    // A player from an earlier month: it exists but is not among this month's active players.
    await one.pool.query('INSERT INTO players (environment_id, external_id) VALUES ($1, $2)', [
      tenant.live.environmentId,
      returning,
    ]);
    const month = monthOf(new Date());
    const counted = await playersCounted(month);

    const statements = recordStatements(two);
    await send(two, [event(known), event(returning), event(brandNew), event(returning)]);
    expect(writes(statements).length).toBeGreaterThan(0);
    expect(await activeMonths(returning)).toEqual([month]);
    expect(await activeMonths(brandNew)).toEqual([month]);
    expect(await playersCounted(month)).toBe(counted + 2);
  });

  it('at the turn of the month a player known for the last one is admitted into the new one', async () => {
    const [playerId] = ids('turn', 1) as [string];
    const month = monthOf(new Date());
    const lastMonth = monthOf(
      new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 2, 1)),
    );
    // The player as it was last month: stored, active then, and known to the replica for then.
    await one.pool.query('INSERT INTO players (environment_id, external_id) VALUES ($1, $2)', [
      tenant.live.environmentId,
      playerId,
    ]);
    await one.pool.query(
      'INSERT INTO monthly_active_players (environment_id, month, external_id) VALUES ($1, $2, $3)',
      [tenant.live.environmentId, lastMonth, playerId],
    );
    two.players.remember(two.players.mark(), tenant.live.environmentId, playerId, {
      timeZone: null,
      attributes: undefined,
      activeMonth: lastMonth,
    });
    const counted = await playersCounted(month);

    await send(two, [event(playerId)]);
    expect(await activeMonths(playerId)).toEqual([lastMonth, month]);
    expect(await playersCounted(month)).toBe(counted + 1);
    // Known for the new month from now on.
    const statements = recordStatements(two);
    await send(two, [event(playerId)]);
    expect(aboutPlayers(statements)).toEqual([]);
  });
});
