import type { EnvironmentContext } from '@engage/contracts';
import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import type { Pool } from '@engage/postgres';
import { createTenant, type Tenant } from '@engage/testkit/tenant.ts';
import { Pool as HttpPool } from 'undici';
import type { BenchStack } from '../stack.ts';
import type { EventConsumerLag } from './consumer-lag.ts';
import { type ForwardedRequest, innerHeaders } from './inner-request.ts';
import { playerId } from './player-draws.ts';

/** Events per POST /v1/events when seeding and loading. */
export const EVENT_BATCH = 1_000;
/** What every seeded player is credited by the streak milestone its first event reaches. */
const STARTING_POINTS = 1_000_000;
/** How long the consumers may take to apply the seeding before the workload gives up. */
const SEED_APPLY_TIMEOUT_MS = 15 * 60_000;

/**
 * One environment with one of each thing a player reads: a mission (every seeded player entered),
 * a streak, a board and a shop item; plus a mission and a board that only probe events count
 * (for freshness probes).
 */
const DEFINITION = {
  discovery: false,
  events: [
    {
      key: 'level_completed',
      properties: {
        level: { type: 'number', required: true },
        score: { type: 'number', required: true },
      },
    },
    { key: 'probe_hit' },
  ],
  missions: [
    {
      key: 'levels',
      name: 'Levels',
      objectives: [{ key: 'levels', event: 'level_completed', target: 1_000_000_000 }],
      rewards: [{ points: 100 }],
      repeat: 'none',
    },
    {
      key: 'probe',
      name: 'Probe',
      listed: false,
      objectives: [{ key: 'hits', event: 'probe_hit', target: 1_000_000_000 }],
      rewards: [],
      repeat: 'none',
    },
  ],
  streaks: [
    {
      key: 'daily-play',
      name: 'Daily play',
      events: [{ event: 'level_completed' }],
      milestones: [{ threshold: 1, rewards: [{ points: STARTING_POINTS }] }],
    },
  ],
  leaderboards: [
    {
      key: 'levels',
      name: 'Levels',
      scoreSource: { type: 'Event', event: 'level_completed', property: 'score' },
      aggregation: 'Sum',
    },
    { key: 'probe', name: 'Probe', scoreSource: { type: 'Event', event: 'probe_hit' }, aggregation: 'Count' },
  ],
  marketplace: { items: [{ key: 'gem', name: 'Gem', priceInPoints: 1 }], collections: [] },
} as EnvironmentFileInput;

export interface SeededEnvironment {
  tenant: Tenant;
  env: EnvironmentContext;
  /** Seeded players are `playerId(0)` … `playerId(players - 1)`. */
  players: number;
}

/** A `level_completed` item of a POST /v1/events body, as JSON text. */
export function levelCompleted(player: string, i: number): string {
  return `{"eventKey":"level_completed","playerId":"${player}","properties":{"level":${(i % 50) + 1},"score":${1_000 + (i % 997)}}}`;
}

export const eventsBody = (items: string[]) => `{"events":[${items.join(',')}]}`;

/**
 * A fresh Live environment of `players` existing players: each one entered in the mission by a read
 * of its missions (straight to rules: the first read of a player rules has no rows for is its
 * cheapest), then made as players are made, by its first event through POST /v1/events (which
 * creates it; rules start its streak, whose milestone credits it points; query puts it on the
 * board); and `probes` probe players entered in the probe mission. Resolves once rules, query and
 * the ledger have applied all of it.
 */
export async function seedEnvironment(
  stack: BenchStack,
  db: Pool,
  lag: EventConsumerLag,
  options: { players: number; probes: string[]; log: (line: string) => void },
): Promise<SeededEnvironment> {
  const tenant = await createTenant(stack.controlPlaneUrl, stack.adminToken, { definition: DEFINITION });
  const env: EnvironmentContext = {
    organizationId: tenant.organizationId,
    environmentId: tenant.live.environmentId,
    environmentKind: 'Live',
  };
  const started = performance.now();
  const rules = new HttpPool(stack.services.rules!.url, { connections: 16 });
  const enter = async (player: string, path: string) => {
    const request: ForwardedRequest = { method: 'POST', path, body: JSON.stringify({ playerId: player }) };
    const res = await rules.request({
      ...request,
      headers: innerHeaders(stack.signer, env, player, request),
    });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`entering ${player}: ${res.statusCode} ${body}`);
  };
  await everyOnce(options.players, 16, (i) => enter(playerId(i), '/v1/missions'));
  await everyOnce(options.probes.length, 16, (i) => enter(options.probes[i]!, '/v1/missions/probe'));
  await rules.close();
  options.log(`seeding: every player entered in the mission (${since(started)} s)`);

  const gateway = new HttpPool(stack.gatewayUrl, { connections: 4 });
  const batches = Math.ceil(options.players / EVENT_BATCH);
  await everyOnce(batches + 1, 4, async (b) => {
    const ids =
      b === batches
        ? options.probes
        : Array.from({ length: Math.min(EVENT_BATCH, options.players - b * EVENT_BATCH) }, (_, k) =>
            playerId(b * EVENT_BATCH + k),
          );
    if (ids.length === 0) return;
    const res = await gateway.request({
      method: 'POST',
      path: '/v1/events',
      headers: { authorization: tenant.live.apiKey, 'content-type': 'application/json' },
      body: eventsBody(ids.map((id, k) => levelCompleted(id, k))),
    });
    const result = (await res.body.json()) as { accepted?: number };
    if (res.statusCode !== 200 || result.accepted !== ids.length)
      throw new Error(`seeding events: ${res.statusCode} ${JSON.stringify(result).slice(0, 500)}`);
  });
  await gateway.close();
  options.log(
    `seeding: ${options.players + options.probes.length} players sent their first event (${since(started)} s)`,
  );

  const deadline = performance.now() + SEED_APPLY_TIMEOUT_MS;
  const expected = options.players + options.probes.length;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ledger.balances WHERE environment_id = $1 AND balance > 0',
      [env.environmentId],
    );
    if ((rows[0]?.n ?? 0) >= expected) break;
    if (performance.now() > deadline)
      throw new Error(`seeding: ${rows[0]?.n} of ${expected} players credited`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!(await lag.caughtUp(Math.max(0, deadline - performance.now()))))
    throw new Error(`seeding: consumers still behind ${JSON.stringify(await lag.lag())}`);
  options.log(`seeding: applied by rules, query and ledger (${since(started)} s)`);
  return { tenant, env, players: options.players };
}

const since = (start: number) => ((performance.now() - start) / 1000).toFixed(0);

/** Runs `op` once for each index below `count` from `concurrency` workers. */
export async function everyOnce(count: number, concurrency: number, op: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await op(next++);
    }),
  );
}
