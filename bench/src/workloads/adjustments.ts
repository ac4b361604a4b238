import { randomUUID } from 'node:crypto';
import { createPool } from '@engage/postgres';
import { createTenant } from '@engage/testkit/tenant.ts';
import { Pool as HttpPool } from 'undici';
import type { WorkloadReport } from '../main.ts';
import { drive, driveOnSchedule, Recorder } from '../measure.ts';
import { startBenchStack } from '../stack.ts';
import type { WorkloadOptions } from './index.ts';

const PLAYERS = 10_000;

/**
 * Points adjustments through the gateway and the ledger (each one a keyed, journaled, conditional
 * update), beside raw Postgres running the same conditional upsert on a table of its own.
 */
export async function adjustments(options: WorkloadOptions): Promise<WorkloadReport> {
  // One organization may have 16 requests running at once (more wait, then get 429): the most one
  // tenant's clients can keep busy.
  const concurrency = options.concurrency ?? 16;
  const stack = await startBenchStack(['ledger', 'gateway']);
  try {
    const tenant = await createTenant(stack.controlPlaneUrl, stack.adminToken);
    const http = new HttpPool(stack.gatewayUrl, { connections: concurrency });
    const adjust = async (playerId: string, amount: number) => {
      const res = await http.request({
        method: 'POST',
        path: '/v1/points/adjustments',
        headers: { authorization: tenant.live.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ playerId, amount, reason: 'bench', idempotencyKey: randomUUID() }),
      });
      await res.body.dump();
      if (res.statusCode !== 200 && res.statusCode !== 409) throw new Error(`status ${res.statusCode}`);
    };
    const spread = await drive(new Recorder(), (_w, i) => adjust(`p${i % PLAYERS}`, i % 4 === 3 ? -1 : 5), {
      concurrency,
      seconds: options.seconds,
    });
    const hot = await drive(new Recorder(), (_w, i) => adjust('hot-player', i % 4 === 3 ? -1 : 5), {
      concurrency,
      seconds: options.seconds,
    });
    const halfRate = await driveOnSchedule(new Recorder(), (i) => adjust(`p${i % PLAYERS}`, 5), {
      seconds: options.seconds,
      ratePerSecond: Math.max(1, spread.opsPerSecond / 2),
    });
    await http.close();

    const raw = await rawPostgres(stack.infra.databaseUrl, concurrency, options.seconds);
    return {
      workload: 'adjustments',
      description: `POST /v1/points/adjustments with idempotency keys over ${PLAYERS} players and on one hot player, concurrency ${concurrency}`,
      rows: [
        { name: 'engage spread', summary: spread, units: 'adjustments' },
        { name: 'engage hot player', summary: hot, units: 'adjustments' },
        { name: 'engage spread at half rate', summary: halfRate, units: 'adjustments' },
        { name: 'raw postgres conditional upsert', summary: raw, units: 'statements' },
      ],
      ratios: {
        'engage spread / raw postgres': spread.opsPerSecond / raw.opsPerSecond,
        'engage hot player / raw postgres': hot.opsPerSecond / raw.opsPerSecond,
      },
      notes: [
        'each engage adjustment is one HTTP hop to the gateway, one to the ledger, and one transaction',
      ],
    };
  } finally {
    await stack.stop();
  }
}

async function rawPostgres(databaseUrl: string, concurrency: number, seconds: number) {
  const pool = createPool({ url: databaseUrl, schema: 'public', max: 10 });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_balances (player_id text PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0))',
  );
  try {
    return await drive(
      new Recorder(),
      async (_w, i) => {
        const amount = i % 4 === 3 ? -1 : 5;
        await pool.query(
          `INSERT INTO bench_balances (player_id, balance) VALUES ($1, GREATEST($2::bigint, 0))
           ON CONFLICT (player_id) DO UPDATE SET balance = bench_balances.balance + $2
           WHERE bench_balances.balance + $2 >= 0`,
          [`p${i % PLAYERS}`, amount],
        );
      },
      { concurrency, seconds },
    );
  } finally {
    await pool.query('DROP TABLE IF EXISTS bench_balances');
    await pool.end();
  }
}
