import type { Pool, PoolClient } from '@engage/postgres';
import { schemaPool, startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import { eventually } from '@engage/testkit/events.ts';
import { createTenant, type Tenant } from '@engage/testkit/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A burst of Sandbox settles of one board: every one of them aims at the period in progress when it
// arrived. The test holds that period's row FOR SHARE (as a scoring batch in flight does) until all
// of them wait for it, so they are truly concurrent, then lets them go.
const SETTLES = 24;

let stack: TestStack;
let tenant: Tenant;
let pool: Pool;

beforeAll(async () => {
  // A pool large enough that every settle reaches its claim (and can be seen waiting there).
  stack = await startStack({
    services: ['query', 'gateway'],
    serviceEnv: { query: { DATABASE_POOL_SIZE: String(SETTLES + 8) } },
  });
  pool = schemaPool('query', stack.databaseUrl);
  tenant = await createTenant(stack.controlPlaneUrl, undefined, {
    definition: {
      discovery: false,
      events: [
        { key: 'scored', properties: { points: { type: 'number', required: true } } },
        { key: 'bonus', properties: { points: { type: 'number', required: true } } },
      ],
      leaderboards: [
        {
          key: 'burst',
          name: { defaultLocale: 'en', translations: { en: 'Burst' } },
          scoreSource: { type: 'Event', event: 'scored', property: 'points' },
          aggregation: 'Sum',
          topSize: 3,
          decimals: 0,
        },
        {
          key: 'unscored',
          name: { defaultLocale: 'en', translations: { en: 'Unscored' } },
          scoreSource: { type: 'Event', event: 'bonus', property: 'points' },
          aggregation: 'Max',
          topSize: 3,
          decimals: 0,
        },
      ],
    },
  });
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await stack?.stop();
});

const settle = (board: string) =>
  fetch(
    `${stack.controlPlaneUrl}/admin/v1/environments/${tenant.sandbox.environmentId}/leaderboards/${board}/settle`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    },
  );

async function periodsOf(board: string) {
  const { rows } = await pool.query<{ period_start: Date; state: string; participants: number | null }>(
    `SELECT period_start, state, participants FROM board_periods
     WHERE environment_id = $1 AND board_key = $2 ORDER BY period_start`,
    [tenant.sandbox.environmentId, board],
  );
  return rows;
}

/**
 * Fires the settles while `hold` (run in an open transaction) keeps the period's row from them;
 * lets them go once every one waits for it, and answers their answers.
 */
async function burstWhileHeld(board: string, hold: (holder: PoolClient) => Promise<unknown>) {
  const holder = await pool.connect();
  try {
    await holder.query('BEGIN');
    await hold(holder);
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const pending = Array.from({ length: SETTLES }, () => settle(board));
    await eventually('every settle waiting for the period', async () => {
      // Lock waiters queue behind each other: count the holder's waiters transitively.
      const { rows } = await pool.query<{ waiting: number }>(
        `WITH RECURSIVE waiter(pid) AS (
           SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))
           UNION
           SELECT a.pid FROM pg_stat_activity a JOIN waiter w ON w.pid = ANY(pg_blocking_pids(a.pid)))
         SELECT count(*)::int AS waiting FROM waiter`,
        [holderPid],
      );
      return rows[0]!.waiting === SETTLES ? true : undefined;
    });
    await holder.query('COMMIT');
    return await Promise.all(pending);
  } finally {
    holder.release();
  }
}

/** One period of the board, settled, and every answer naming it. */
async function expectOneSettledPeriod(board: string, answers: Response[], participants: number) {
  expect(answers.map((a) => a.status)).toEqual(Array(SETTLES).fill(200));
  const bodies = (await Promise.all(answers.map((a) => a.json()))) as { periodEndsAtUtc: string | null }[];
  const periods = await periodsOf(board);
  expect(periods).toHaveLength(1);
  expect(periods[0]).toMatchObject({ state: 'settled', participants });
  const settled = {
    leaderboardKey: board,
    periodStartsAtUtc: periods[0]!.period_start.toISOString(),
    participants,
  };
  expect(bodies).toEqual(Array(SETTLES).fill(expect.objectContaining(settled)));
  expect(new Set(bodies.map((b) => b.periodEndsAtUtc)).size).toBe(1);
  expect(bodies[0]!.periodEndsAtUtc).not.toBeNull();
}

describe('concurrent sandbox settles of one board', () => {
  it('close the period once and all answer its result', async () => {
    const sent = await fetch(`${stack.gatewayUrl}/v1/events`, {
      method: 'POST',
      headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          { eventKey: 'scored', playerId: 'ann', properties: { points: 3 } },
          { eventKey: 'scored', playerId: 'bob', properties: { points: 4 } },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    await eventually('both players on the board', async () => {
      const rows = await periodsOf('burst');
      const res = await fetch(`${stack.gatewayUrl}/v1/leaderboards/burst?PlayerId=ann`, {
        headers: { authorization: tenant.sandbox.apiKey },
      });
      const body = (await res.json()) as { leaderboard?: { participants: number } };
      return rows.length === 1 && body.leaderboard?.participants === 2 ? rows : undefined;
    });

    // Held as a scoring batch holds it: FOR SHARE until its commit.
    const answers = await burstWhileHeld('burst', (holder) =>
      holder.query(
        `SELECT 1 FROM board_periods WHERE environment_id = $1 AND board_key = 'burst' FOR SHARE`,
        [tenant.sandbox.environmentId],
      ),
    );
    await expectOneSettledPeriod('burst', answers, 2);

    const { rows: results } = await pool.query<{ row_key: string; rank: number }>(
      `SELECT row_key, rank FROM board_results WHERE environment_id = $1 AND board_key = 'burst' ORDER BY rank`,
      [tenant.sandbox.environmentId],
    );
    expect(results).toEqual([
      { row_key: 'bob', rank: 1 },
      { row_key: 'ann', rank: 2 },
    ]);
  });

  it('close a period nobody scored in once, while it is being created', async () => {
    // The period's row is being inserted (as a first scoring batch would) and not yet committed:
    // every settle's own insert of it waits, then they all find it.
    const answers = await burstWhileHeld('unscored', (holder) =>
      holder.query(
        `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
         VALUES ($1, 'unscored', to_timestamp(0), NULL, $2)`,
        [tenant.sandbox.environmentId, tenant.organizationId],
      ),
    );
    await expectOneSettledPeriod('unscored', answers, 0);
  });
});
