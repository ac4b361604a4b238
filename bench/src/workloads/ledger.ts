import { randomUUID } from 'node:crypto';
import type { EnvironmentContext } from '@engage/contracts';
import { findRepoRoot } from '@engage/devstack';
import type { InternalSigner } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { spawnService } from '@engage/testkit/process.ts';
import { internalHeaders } from '@engage/testkit/stack.ts';
import { Pool as HttpPool } from 'undici';
import type { WorkloadReport } from '../main.ts';
import { drive, driveAtRate, Recorder, type RunSummary } from '../measure.ts';
import { cpuProfileArgs, processCpuMs } from '../process-cpu.ts';
import { type BenchStack, startBenchStack } from '../stack.ts';
import { describeStalls, type StallReport, watchStalls } from '../stalls.ts';
import type { WorkloadOptions } from './index.ts';

const PLAYERS = 1_000;
/** Items with a stock (each purchase takes a unit of a shared row), for the many-items workload. */
const STOCKED_ITEMS = 100;
/** Half the targets (2,000 operations/s spread, 500/s on one hot player): where its p99 of 25 ms applies. */
const TARGET_HALF_SPREAD = 1_000;
const TARGET_HALF_HOT = 250;
/** The p99 bound, ms: what a slow operation is, for the report of where slow ones waited. */
const SLOW_MS = 25;
/** The routes the bench's operations take (adjustments and purchases). */
const WRITE_ROUTES = ['/v1/points/adjustments', '/v1/marketplace-items/:marketplaceItemKey/purchases'];

/**
 * The ledger's own writes, sent straight to the ledger process as the gateway forwards them: keyed
 * adjustments and purchases spread over many players, and on one hot player with the per-player
 * queue combining writes (PLAYER_BATCH_MAX 64) and without it (1). Beside them, raw Postgres running
 * the equivalent conditional update on a table of its own, spread and on one row.
 */
export async function ledger(options: WorkloadOptions): Promise<WorkloadReport> {
  const concurrency = options.concurrency ?? 32;
  const seconds = options.seconds;
  const stack = await startBenchStack(['ledger'], {
    nodeArgs: { ledger: cpuProfileArgs(options.cpuProfileDir, 'ledger') },
  });
  await forgetEarlierBenchOutboxRows(stack);
  const unbatched = await spawnService(findRepoRoot(), 'ledger', {
    ...ledgerEnv(stack),
    PLAYER_BATCH_MAX: '1',
  });
  try {
    const env: EnvironmentContext = {
      organizationId: randomUUID(),
      environmentId: randomUUID(),
      environmentKind: 'Sandbox',
    };
    const batched = ledgerClient(stack.services.ledger!.url, env, concurrency, stack.signer);
    const single = ledgerClient(unbatched.url, env, concurrency, stack.signer);
    await batched.applyShop();

    // Each player alternates: a pass of credits, then a pass of purchases (price 1), and so on.
    const spreadOp = (_w: number, i: number) => {
      const playerId = `p${i % PLAYERS}`;
      return Math.floor(i / PLAYERS) % 2 === 0 ? batched.adjust(playerId, 5) : batched.buy(playerId);
    };
    const hotOp = (client: typeof batched, playerId: string) => (_w: number, i: number) =>
      i % 2 === 0 ? client.adjust(playerId, 3) : client.buy(playerId);

    const ledgerPid = stack.services.ledger!.pid();
    const cpu = cpuMeter(stack.infra.databaseUrl, ledgerPid);
    const measure = async (
      op: (w: number, i: number) => Promise<void>,
      ratePerSecond?: number,
    ): Promise<{ summary: RunSummary; cpu: string; stalls: StallReport }> => {
      const before = await cpu.read();
      const { result: summary, stalls } = await watchStalls(
        stack.services.ledger!.metricsUrl,
        WRITE_ROUTES,
        SLOW_MS,
        () => driveAtRate(new Recorder(), op, { concurrency, seconds, ratePerSecond }),
      );
      return { summary, cpu: cpu.perOperation(before, await cpu.read(), summary.operations), stalls };
    };

    const spreadRun = await measure(spreadOp);
    const spread = spreadRun.summary;
    const adjustmentsOnly = await drive(
      new Recorder(),
      (_w, i) => batched.adjust(`p${i % PLAYERS}`, i % 3 === 2 ? -1 : 2),
      { concurrency, seconds },
    );
    const stockedItems = await drive(
      new Recorder(),
      (_w, i) => batched.buy(`p${i % PLAYERS}`, `stocked-${i % STOCKED_ITEMS}`),
      { concurrency, seconds },
    );
    const hotRun = await measure(hotOp(batched, 'hot-batched'));
    const hot = hotRun.summary;
    const hotAlone = await drive(new Recorder(), hotOp(single, 'hot-alone'), { concurrency, seconds });
    const spreadHalf = (await measure(spreadOp, Math.max(1, spread.opsPerSecond / 2))).summary;
    const hotHalf = (await measure(hotOp(batched, 'hot-batched'), Math.max(1, hot.opsPerSecond / 2))).summary;
    const spreadTargetHalf = await measure(spreadOp, TARGET_HALF_SPREAD);
    const hotTargetHalf = await measure(hotOp(batched, 'hot-batched'), TARGET_HALF_HOT);
    await batched.close();
    await cpu.close();
    await single.close();

    const raw = await rawPostgres(stack.infra.databaseUrl, concurrency, seconds);
    return {
      workload: 'ledger',
      description: `keyed adjustments and purchases sent to the ledger over ${PLAYERS} players and on one hot player, concurrency ${concurrency}`,
      rows: [
        { name: 'ledger spread', summary: spread, units: 'operations' },
        { name: 'ledger adjustments only, spread', summary: adjustmentsOnly, units: 'operations' },
        {
          name: `ledger purchases of ${STOCKED_ITEMS} stocked items`,
          summary: stockedItems,
          units: 'operations',
        },
        { name: 'ledger hot player (combined)', summary: hot, units: 'operations' },
        { name: 'ledger hot player (one per commit)', summary: hotAlone, units: 'operations' },
        { name: 'ledger spread at half rate', summary: spreadHalf, units: 'operations' },
        { name: 'ledger hot player at half rate', summary: hotHalf, units: 'operations' },
        {
          name: `ledger spread at ${TARGET_HALF_SPREAD.toLocaleString('en')}/s`,
          summary: spreadTargetHalf.summary,
          units: 'operations',
        },
        {
          name: `ledger hot player at ${TARGET_HALF_HOT}/s`,
          summary: hotTargetHalf.summary,
          units: 'operations',
        },
        { name: 'raw postgres spread', summary: raw.spread, units: 'statements' },
        { name: 'raw postgres one row', summary: raw.hot, units: 'statements' },
      ],
      ratios: {
        'ledger spread / raw postgres spread': spread.opsPerSecond / raw.spread.opsPerSecond,
        'ledger hot player / raw postgres one row': hot.opsPerSecond / raw.hot.opsPerSecond,
        'ledger hot player combined / one per commit': hot.opsPerSecond / hotAlone.opsPerSecond,
      },
      notes: [
        'each ledger operation is one HTTP request; the ledger combines queued operations of many players into one transaction of a few set-based statements whatever its size, see docs/ledger.md',
        'coin has no stock (no shared row); the stocked items take a unit of a shared row per purchase',
        'raw postgres is one conditional UPDATE per statement, autocommit',
        `"at half rate" runs at half the saturated row's measured rate; the ${TARGET_HALF_SPREAD.toLocaleString('en')}/s and ${TARGET_HALF_HOT}/s rows at half the targets (2,000/s spread, 500/s hot), the rates the p99 target of 25 ms applies to; these four rows send on a fixed open schedule (${concurrency} connections) and time each operation from when it was due (no coordinated omission)`,
        `where operations waited, spread at ${TARGET_HALF_SPREAD.toLocaleString('en')}/s: ${describeStalls(spreadTargetHalf.stalls, SLOW_MS)}`,
        `where operations waited, hot player at ${TARGET_HALF_HOT}/s: ${describeStalls(hotTargetHalf.stalls, SLOW_MS)}`,
        `CPU per operation (user + system, ms): spread at saturation ${spreadRun.cpu}; hot player at saturation ${hotRun.cpu}; spread at ${TARGET_HALF_SPREAD.toLocaleString('en')}/s ${spreadTargetHalf.cpu}; hot player at ${TARGET_HALF_HOT}/s ${hotTargetHalf.cpu}`,
        ...(options.cpuProfileDir
          ? [`CPU profile of the ledger (combining) process: ${options.cpuProfileDir}`]
          : []),
      ],
    };
  } finally {
    await unbatched.stop();
    await stack.stop();
  }
}

/**
 * CPU time of the ledger process, of the Postgres backends of ledger connections (application
 * name `ledger`; the one-per-commit ledger's sit idle meanwhile) and of this bench process, read
 * from /proc: per operation, less sensitive than throughput to other load on the machine.
 */
function cpuMeter(databaseUrl: string, ledgerPid: number | undefined) {
  const pool = createPool({ url: databaseUrl, schema: 'public', max: 1, applicationName: 'bench' });
  const read = async () => {
    const { rows } = await pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = 'ledger'`,
    );
    const client = process.cpuUsage();
    return {
      ledger: processCpuMs(ledgerPid),
      backends: new Map(rows.map((r) => [r.pid, processCpuMs(r.pid)])),
      client: (client.user + client.system) / 1000,
    };
  };
  type Reading = Awaited<ReturnType<typeof read>>;
  return {
    read,
    perOperation(before: Reading, after: Reading, operations: number): string {
      let postgres = 0;
      // Backends that were gone by the end are not counted; new ones count from 0.
      for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
      const per = (ms: number) => (ms / operations).toFixed(3);
      return `ledger ${per(after.ledger - before.ledger)}, its Postgres backends ${per(postgres)}, bench client ${per(after.client - before.client)}`;
    },
    close: () => pool.end(),
  };
}

/** The environment the bench stack gave its ledger, for a second ledger on the same servers. */
function ledgerEnv(stack: BenchStack): Record<string, string> {
  return {
    DATABASE_URL: stack.infra.databaseUrl,
    KAFKA_BROKERS: stack.infra.brokers.join(','),
    KAFKA_TOPIC_PREFIX: stack.topicPrefix,
    INTERNAL_AUTH_SECRET: stack.internalAuthSecret,
    LOG_LEVEL: 'warn',
  };
}

function ledgerClient(url: string, env: EnvironmentContext, connections: number, signer: InternalSigner) {
  const http = new HttpPool(url, { connections });
  const send = async (method: 'POST' | 'PUT', path: string, playerId: string | undefined, body: unknown) => {
    const text = JSON.stringify(body);
    const res = await http.request({
      method,
      path,
      headers: signer.sign({
        method,
        url: path,
        headers: {
          ...internalHeaders(env, playerId ? { id: playerId } : undefined),
          'content-type': 'application/json',
        },
        body: text,
      }),
      body: text,
    });
    await res.body.dump();
    // 409 (insufficient balance) is an answer of the contract, not a failure of the run.
    if (res.statusCode !== 200 && res.statusCode !== 409) throw new Error(`status ${res.statusCode}`);
  };
  return {
    applyShop: () =>
      send('PUT', `/internal/v1/environments/${env.environmentId}/definition/marketplace`, undefined, {
        items: [
          { key: 'coin', name: 'Coin', priceInPoints: 1 },
          ...Array.from({ length: STOCKED_ITEMS }, (_, i) => ({
            key: `stocked-${i}`,
            name: `Stocked ${i}`,
            priceInPoints: 1,
            stock: 1_000_000_000,
          })),
        ],
        collections: [],
      }),
    adjust: (playerId: string, amount: number) =>
      send('POST', '/v1/points/adjustments', playerId, { playerId, amount, idempotencyKey: randomUUID() }),
    buy: (playerId: string, itemKey = 'coin') =>
      send('POST', `/v1/marketplace-items/${itemKey}/purchases`, playerId, {
        playerId,
        idempotencyKey: randomUUID(),
      }),
    close: () => http.close(),
  };
}

async function rawPostgres(databaseUrl: string, concurrency: number, seconds: number) {
  const pool = createPool({ url: databaseUrl, schema: 'public', max: 10 });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_ledger_balances (player_id text PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0))',
  );
  await pool.query(
    `INSERT INTO bench_ledger_balances SELECT 'p' || g, 1000000 FROM generate_series(0, ${PLAYERS - 1}) g
     UNION ALL SELECT 'hot', 1000000 ON CONFLICT DO NOTHING`,
  );
  const update = (playerId: string, amount: number) =>
    pool.query(
      `UPDATE bench_ledger_balances SET balance = balance + $2 WHERE player_id = $1 AND balance + $2 >= 0`,
      [playerId, amount],
    );
  try {
    const spread = await drive(
      new Recorder(),
      (_w, i) => update(`p${i % PLAYERS}`, i % 2 === 0 ? 5 : -1).then(() => {}),
      {
        concurrency,
        seconds,
      },
    );
    const hot = await drive(new Recorder(), (_w, i) => update('hot', i % 2 === 0 ? 3 : -1).then(() => {}), {
      concurrency,
      seconds,
    });
    return { spread, hot };
  } finally {
    await pool.query('DROP TABLE IF EXISTS bench_ledger_balances');
    await pool.end();
  }
}

/**
 * Journal records earlier bench runs left unpublished (their topics are throwaway) would be published
 * first, in id order, by this run's relay, and cost this run. Rows of other stacks are left alone.
 */
async function forgetEarlierBenchOutboxRows(stack: BenchStack): Promise<void> {
  const pool = createPool({ url: stack.infra.databaseUrl, schema: 'ledger', max: 1 });
  try {
    await pool.query(`DELETE FROM outbox WHERE topic LIKE 'bench%' AND topic NOT LIKE $1`, [
      `${stack.topicPrefix}%`,
    ]);
  } finally {
    await pool.end();
  }
}
