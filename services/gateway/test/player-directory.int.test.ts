import { decodePlayerContext, INTERNAL_HEADERS, type PlayerContext } from '@engage/contracts';
import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playerResolutions } from '../src/application/player-metrics.ts';
import { monthOf } from '../src/domain/quota.ts';
import { bearer, type InProcessGateway, recordStatements, startGateway } from './support.ts';

/** Two replicas of the gateway on one database, forwarding to one owner that records the player it is given. */
let upstream: FastifyInstance;
let one: InProcessGateway;
let two: InProcessGateway;
let tenant: Tenant;
const playersSeen = new Map<string, PlayerContext>();

beforeAll(async () => {
  upstream = Fastify();
  upstream.all('/*', async (request, reply) => {
    const player = decodePlayerContext(String(request.headers[INTERNAL_HEADERS.player]));
    playersSeen.set(String((request.query as { Request?: string }).Request), player);
    return reply.send({});
  });
  const upstreamUrl = await upstream.listen({ host: '127.0.0.1', port: 0 });
  const upstreams = { rules: upstreamUrl, ledger: upstreamUrl, query: upstreamUrl };
  one = await startGateway({ upstreams });
  // On the same topics: the second learns the keys the first's admin API creates.
  two = await startGateway({ upstreams, topicPrefix: one.topicPrefix });
  tenant = await createTenant(one.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      discovery: false,
      events: [{ key: 'level_completed', properties: {} }],
      playerAttributes: [{ key: 'tier', type: 'string' }],
    },
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
  await upstream?.close();
});

/** The player the owner is given for a forwarded call through `gateway`, or the refusal's code. */
async function playerThrough(gateway: InProcessGateway, playerId: string, apiKey = tenant.live.apiKey) {
  const requestId = crypto.randomUUID();
  const res = await fetch(
    `${gateway.url}/v1/points?PlayerId=${encodeURIComponent(playerId)}&Request=${requestId}`,
    { headers: bearer(apiKey) },
  );
  if (res.status !== 200) return { refused: ((await res.json()) as { code: string }).code };
  return playersSeen.get(requestId)!;
}

async function setTier(gateway: InProcessGateway, playerId: string, tier: string) {
  const res = await gateway.app.inject({
    method: 'POST',
    url: '/v1/players/attributes',
    headers: bearer(tenant.live.apiKey),
    payload: { playerId, attributes: { tier } },
  });
  expect(res.statusCode).toBe(200);
}

async function resolutions() {
  const { values } = await playerResolutions.get();
  const of = (outcome: string) => values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  return { known: of('known'), read: of('read'), admission: of('admission') };
}

describe('players known to a replica', () => {
  it('a player created and counted through another replica costs one read and no write', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    await setTier(one, playerId, 'gold');
    await playerThrough(two, `warm-up-${crypto.randomUUID()}`); // the key is now known to the second replica
    const before = await resolutions();
    const statements = recordStatements(two);
    expect(await playerThrough(two, playerId)).toEqual({
      id: playerId,
      timeZone: null,
      attributes: { tier: 'gold' },
      isNew: false,
    });
    const ofPlayers = statements.filter((s) => !s.includes('api_keys'));
    expect(ofPlayers).toHaveLength(1);
    expect(ofPlayers[0]).toMatch(/^\s*SELECT/);
    // Known from now on: no statement at all.
    await playerThrough(two, playerId);
    expect(statements.filter((s) => !s.includes('api_keys'))).toHaveLength(1);
    const after = await resolutions();
    expect([
      after.read - before.read,
      after.known - before.known,
      after.admission - before.admission,
    ]).toEqual([1, 1, 0]);
  });

  it('an attribute change made through one replica reaches the next calls through the other', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    await setTier(one, playerId, 'silver');
    expect(await playerThrough(two, playerId)).toMatchObject({ attributes: { tier: 'silver' } });
    await setTier(one, playerId, 'gold');
    // The change arrives as a Postgres notification, moments after its commit.
    await expect
      .poll(async () => ((await playerThrough(two, playerId)) as PlayerContext).attributes, {
        timeout: 20_000,
      })
      .toEqual({ tier: 'gold' });
  });

  it("a zone an event changes through one replica reaches the other's calls", async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    await setTier(one, playerId, 'silver');
    expect(await playerThrough(two, playerId)).toMatchObject({ timeZone: null });
    const res = await one.app.inject({
      method: 'POST',
      url: '/v1/events',
      headers: bearer(tenant.live.apiKey),
      payload: { events: [{ eventKey: 'level_completed', playerId, timeZone: 'Europe/Paris' }] },
    });
    expect(res.json()).toMatchObject({ accepted: 1 });
    await expect
      .poll(async () => ((await playerThrough(two, playerId)) as PlayerContext).timeZone, { timeout: 20_000 })
      .toBe('Europe/Paris');
  });

  it('what a request read before a change to the player was announced is not kept', async () => {
    const [stale, witness] = [`p-${crypto.randomUUID()}`, `p-${crypto.randomUUID()}`];
    for (const id of [stale, witness]) {
      await setTier(one, id, 'silver');
      await playerThrough(two, id);
    }
    const known = () => two.players.knownOf(tenant.live.environmentId);
    // The notification of setTier's own change may reach `two` after that first read and drop it.
    await expect
      .poll(
        async () => {
          await playerThrough(two, witness);
          return known()(witness);
        },
        { timeout: 20_000 },
      )
      .toBeDefined();
    const mark = two.players.mark(); // a read of `stale` starts
    for (const id of [stale, witness]) {
      await one.pool.query(
        `UPDATE players SET attributes = '{"tier":"gold"}' WHERE environment_id = $1 AND external_id = $2`,
        [tenant.live.environmentId, id],
      );
    }
    // Notifications arrive in commit order: once the witness is gone, the change to `stale` is known.
    await expect.poll(() => known()(witness), { timeout: 20_000 }).toBeUndefined();
    two.players.remember(mark, tenant.live.environmentId, stale, {
      timeZone: null,
      attributes: { tier: 'silver' },
      activeMonth: monthOf(new Date()),
    });
    expect(known()(stale)).toBeUndefined();
    expect(await playerThrough(two, stale)).toMatchObject({ attributes: { tier: 'gold' } });
  });

  it('a replica that loses its notification connection forgets what it knew, then listens again', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    await setTier(one, playerId, 'silver');
    expect(await playerThrough(two, playerId)).toMatchObject({ attributes: { tier: 'silver' } });
    const listeningAgain = two.players.whenListening({ next: true });
    const { rows } = await one.pool.query(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
      [two.playerListenerName],
    );
    expect(rows).toEqual([{ ended: true }]);
    // A change whose notification the replica cannot get: made while it is not listening (and,
    // to be sure, with the table's triggers off).
    const client = await one.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SET LOCAL session_replication_role = 'replica'");
      await client.query(
        `UPDATE players SET attributes = '{"tier":"bronze"}' WHERE environment_id = $1 AND external_id = $2`,
        [tenant.live.environmentId, playerId],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await listeningAgain;
    expect(await playerThrough(two, playerId)).toMatchObject({ attributes: { tier: 'bronze' } });
    await setTier(one, playerId, 'gold');
    await expect
      .poll(async () => ((await playerThrough(two, playerId)) as PlayerContext).attributes, {
        timeout: 20_000,
      })
      .toEqual({ tier: 'gold' });
  });

  it("replicas racing for a Sandbox's last player slot admit exactly one; admitted players stay welcome", async () => {
    const sandbox = await createTenant(one.controlPlaneUrl, TEST_ADMIN_TOKEN);
    await one.pool.query(
      `INSERT INTO usage_counters (scope_id, metric, period, value) VALUES ($1, 'monthly_active_players', $2, 98)`,
      [sandbox.sandbox.environmentId, monthOf(new Date())],
    );
    const ids = Array.from({ length: 8 }, (_, i) => `racer-${i}-${crypto.randomUUID()}`);
    const answers = await Promise.all(
      ids.map((id, i) => playerThrough(i % 2 ? two : one, id, sandbox.sandbox.apiKey)),
    );
    const admitted = ids.filter((_, i) => !('refused' in answers[i]!));
    expect(admitted).toHaveLength(1);
    expect(answers.filter((a) => 'refused' in a).map((a) => (a as { refused: string }).refused)).toEqual(
      Array(7).fill('sandbox.monthly_active_players_exceeded'),
    );
    // The admitted player is known through either replica; a newcomer is still refused.
    for (const gateway of [one, two]) {
      expect(await playerThrough(gateway, admitted[0]!, sandbox.sandbox.apiKey)).toMatchObject({
        isNew: false,
      });
      expect(await playerThrough(gateway, `late-${crypto.randomUUID()}`, sandbox.sandbox.apiKey)).toEqual({
        refused: 'sandbox.monthly_active_players_exceeded',
      });
    }
  });
});
