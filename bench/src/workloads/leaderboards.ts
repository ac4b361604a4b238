import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { type EnvironmentContext, encodePlayerContext, INTERNAL_HEADERS, topics } from '@engage/contracts';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { findRepoRoot } from '@engage/devstack';
import { createPool, type Pool, withTransaction } from '@engage/postgres';
import { encodeRankScore } from '@engage/query/domain/rank-score.ts';
import { replaceDefinitions } from '@engage/query/store/definitions.ts';
import { boardsMarkerKey, displayNamesKey, periodBoardKey } from '@engage/query/store/redis/keys.ts';
import { defineReadScript, readLiveBoard } from '@engage/query/store/redis/live-read.ts';
import { createRedis, type Redis } from '@engage/redis';
import { type ServiceProcess, spawnService } from '@engage/testkit/process.ts';
import { CpuMeter, cpuPerUnit } from '../cpu-meter.ts';
import { GetClient } from '../get-client.ts';
import type { WorkloadReport } from '../main.ts';
import { driveAtRate, Recorder } from '../measure.ts';
import { cpuProfileArgs } from '../process-cpu.ts';
import { startBenchStack } from '../stack.ts';
import { describeStalls, watchStalls } from '../stalls.ts';
import type { WorkloadOptions } from './index.ts';
import { startUpdateStream, UPDATE_PLAYERS } from './leaderboard-updates.ts';

const PLAYERS = 1_000_000;
const LOAD_BATCH = 5_000;
const UPDATES = 250_000;
const STREAM_RATE = 5_000;
const NAMED = 50;
/** The target: reads per second from one query process (p99 at most 10 ms). */
const TARGET_READS = 5_000;
/** The p99 bound: what a slow read is, for the report of where slow reads waited. */
const SLOW_MS = 10;
const SCALE = { decimals: 0, lowestFirst: false, periodStart: 0, periodEnd: null };
const BOARD = LeaderboardDefinitionSchema.parse({
  key: 'bench',
  name: 'Bench',
  scoreSource: { type: 'Event', event: 'scored', property: 'points' },
  aggregation: 'Sum',
});

/** The three reads a game makes, and all three in one request. */
type ReadKind = 'top' | 'around' | 'named' | 'all';
/** The mix: each read one kind, in equal thirds (a board screen, a "my place" view, a friends tab). */
const MIX: readonly ReadKind[] = ['top', 'around', 'named'];

/** The caller and the named players of read `i`, spread over the million. */
function readOf(i: number, kind: ReadKind) {
  const me = `p${(i * 7919) % PLAYERS}`;
  const named =
    kind === 'named' || kind === 'all'
      ? Array.from({ length: NAMED }, (_, k) => `p${(i * 31 + k * 104_729) % PLAYERS}`)
      : [];
  const top = kind === 'top' || kind === 'all' ? 10 : 0;
  const around = kind === 'around' || kind === 'all' ? 5 : 0;
  return { me, named, top, around };
}

const mixed = (i: number): ReadKind => MIX[i % MIX.length]!;
const allInOne = (): ReadKind => 'all';

/**
 * A plain board of 1,000,000 players. Score updates are applied from the events topic by one query
 * process in the `updates` role (exactly-once consumer, Postgres, then Redis); reads go to another
 * in the `reads` role, with and without updates streaming in, beside raw ioredis issuing the same
 * Redis commands on the same keys. Reads are measured twice: the mix (each read one kind: Top=10,
 * Around=5 or PlayerIds of 50, in equal thirds), the headline; and all three in every read.
 */
export async function leaderboards(options: WorkloadOptions): Promise<WorkloadReport> {
  const concurrency = options.concurrency ?? 32;
  const stack = await startBenchStack([]);
  const env: EnvironmentContext = {
    organizationId: randomUUID(),
    environmentId: randomUUID(),
    environmentKind: 'Live',
  };
  const keyPrefix = stack.topicPrefix;
  const pool = createPool({ url: stack.infra.databaseUrl, schema: 'query', max: 4 });
  const redis = createRedis(stack.infra.redisUrl, { connectionName: 'bench' });
  const updateStream = await startUpdateStream({
    brokers: stack.infra.brokers,
    topicPrefix: stack.topicPrefix,
    env,
    ratePerSecond: STREAM_RATE,
  });
  const processes: ServiceProcess[] = [];
  const spawnQuery = async (role: 'reads' | 'updates') => {
    const child = await spawnService(
      findRepoRoot(),
      'query',
      {
        DATABASE_URL: stack.infra.databaseUrl,
        REDIS_URL: stack.infra.redisUrl,
        REDIS_KEY_PREFIX: keyPrefix,
        KAFKA_BROKERS: stack.infra.brokers.join(','),
        KAFKA_TOPIC_PREFIX: stack.topicPrefix,
        INTERNAL_AUTH_SECRET: stack.internalAuthSecret,
        LOG_LEVEL: 'warn',
        QUERY_ROLE: role,
      },
      { nodeArgs: cpuProfileArgs(options.cpuProfileDir, `query-${role}`) },
    );
    processes.push(child);
    return child;
  };
  try {
    const loadStarted = performance.now();
    await loadBoard(pool, redis, keyPrefix, env);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const memory = await memoryPerPlayer(redis, keyPrefix, env.environmentId);

    // Updates first, on their own: queued in Kafka, then applied by a fresh updates process.
    await updateStream.queue(0, UPDATES);
    const updater = await spawnQuery('updates');
    let reader: ServiceProcess | undefined;
    const meter = new CpuMeter({
      processes: { 'query (reads)': () => reader?.pid(), 'query (updates)': () => updater.pid() },
      db: pool,
      redis,
    });
    const applied = await measureApplied(pool, stack.topicPrefix, UPDATES, () => meter.snapshot());
    const appliedCpu = cpuPerUnit(await meter.since(applied.cpuBefore), applied.count);

    // Reads from a read-only process, without and with updates streaming in at a fixed rate.
    reader = await spawnQuery('reads');
    const http = new GetClient(reader.url, concurrency);
    const read = (i: number, kind: ReadKind) => {
      const { me, named, top, around } = readOf(i, kind);
      let path = `/v1/leaderboards/bench?PlayerId=${me}&Top=${top}`;
      if (around > 0) path += `&Around=${around}`;
      for (const id of named) path += `&PlayerIds=${id}`;
      const headers = {
        [INTERNAL_HEADERS.organizationId]: env.organizationId,
        [INTERNAL_HEADERS.environmentId]: env.environmentId,
        [INTERNAL_HEADERS.environmentKind]: env.environmentKind,
        [INTERNAL_HEADERS.player]: encodePlayerContext({
          id: me,
          timeZone: null,
          attributes: {},
          isNew: false,
        }),
      };
      return http.get(path, stack.signer.sign({ method: 'GET', url: path, headers }));
    };
    const measureReads = async (kindOf: (i: number) => ReadKind, ratePerSecond?: number) => {
      const redisBefore = await readCommandStats(redis);
      const cpuBefore = await meter.snapshot();
      const { result: summary, stalls } = await watchStalls(
        reader.metricsUrl,
        ['/v1/leaderboards/:leaderboardKey'],
        SLOW_MS,
        () =>
          driveAtRate(new Recorder(), (_w, i) => read(i, kindOf(i)), {
            concurrency,
            seconds: options.seconds,
            ratePerSecond,
          }),
      );
      const cpu = cpuPerUnit(await meter.since(cpuBefore), summary.operations);
      const redisPerRead = redisTimePerRead(redisBefore, await readCommandStats(redis), summary.operations);
      return { summary, cpu, redisPerRead, stalls };
    };
    let streamedSoFar = 0;
    const whileStreaming = async <T>(measure: () => Promise<T>) => {
      const streaming = updateStream.stream(UPDATES + streamedSoFar, options.seconds);
      const result = await measure();
      const streamed = await streaming;
      streamedSoFar += streamed;
      return { result, streamed };
    };
    const mixQuiet = await measureReads(mixed);
    const mixStreaming = await whileStreaming(() => measureReads(mixed));
    const allQuiet = await measureReads(allInOne);
    const allStreaming = await whileStreaming(() => measureReads(allInOne));
    // The target's rate, and half of it, on a fixed open schedule: latency at a load rather than at
    // saturation, each read timed from when it was due.
    const mixAtTarget = await whileStreaming(() => measureReads(mixed, TARGET_READS));
    const mixAtHalf = await whileStreaming(() => measureReads(mixed, TARGET_READS / 2));
    await http.close();

    const raw = (kindOf: (i: number) => ReadKind, ratePerSecond?: number) =>
      rawReads(stack.infra.redisUrl, keyPrefix, env, kindOf, {
        concurrency,
        seconds: options.seconds,
        ratePerSecond,
      });
    // The reference for the target row: the same commands at the same rate, with the same stream.
    const rawMixAtTarget = await whileStreaming(() => raw(mixed, TARGET_READS));
    const statsBefore = await readCommandStats(redis);
    const rawMix = await raw(mixed);
    const statsBetween = await readCommandStats(redis);
    const rawAll = await raw(allInOne);
    const rawMixRedis = redisTimePerRead(statsBefore, statsBetween, rawMix.operations);
    const rawAllRedis = redisTimePerRead(statsBetween, await readCommandStats(redis), rawAll.operations);
    const ratio = (a: { opsPerSecond: number }, b: { opsPerSecond: number }) =>
      a.opsPerSecond / b.opsPerSecond;
    return {
      workload: 'leaderboards',
      description: `a board of ${PLAYERS.toLocaleString('en')} players; reads from a read-only query process (concurrency ${concurrency}): the mix (Top=10, Around=5 or PlayerIds of ${NAMED}, a third each) and all three in every read, with and without ${STREAM_RATE}/s score updates streaming in (applied by a separate updates process)`,
      rows: [
        { name: 'mix: engage reads, no updates', summary: mixQuiet.summary, units: 'reads' },
        {
          name: 'mix: engage reads, updates streaming',
          summary: mixStreaming.result.summary,
          units: 'reads',
        },
        {
          name: `mix at ${TARGET_READS}/s: engage, updates streaming`,
          summary: mixAtTarget.result.summary,
          units: 'reads',
        },
        {
          name: `mix at ${TARGET_READS / 2}/s: engage, updates streaming`,
          summary: mixAtHalf.result.summary,
          units: 'reads',
        },
        { name: 'mix: raw ioredis, same commands', summary: rawMix, units: 'reads' },
        {
          name: `mix at ${TARGET_READS}/s: raw ioredis, updates streaming`,
          summary: rawMixAtTarget.result,
          units: 'reads',
        },
        { name: 'all-in-one: engage reads, no updates', summary: allQuiet.summary, units: 'reads' },
        {
          name: 'all-in-one: engage reads, updates streaming',
          summary: allStreaming.result.summary,
          units: 'reads',
        },
        { name: 'all-in-one: raw ioredis, same commands', summary: rawAll, units: 'reads' },
      ],
      ratios: {
        'mix: engage (no updates) / raw ioredis': ratio(mixQuiet.summary, rawMix),
        'mix: engage (updates streaming) / raw ioredis': ratio(mixStreaming.result.summary, rawMix),
        'all-in-one: engage (no updates) / raw ioredis': ratio(allQuiet.summary, rawAll),
        'all-in-one: engage (updates streaming) / raw ioredis': ratio(allStreaming.result.summary, rawAll),
      },
      notes: [
        `score updates applied: ${Math.round(applied.perSecond)} per second (${UPDATES.toLocaleString('en')} events over ${UPDATE_PLAYERS.toLocaleString('en')} players, Kafka → Postgres → Redis, one query process in the updates role)`,
        `CPU µs per update applied: ${appliedCpu}`,
        `updates streamed during the reads: ${mixStreaming.streamed.toLocaleString('en')} (mix), ${allStreaming.streamed.toLocaleString('en')} (all-in-one) (target ${STREAM_RATE}/s), applied by the updates process`,
        `the rows at ${TARGET_READS}/s and ${TARGET_READS / 2}/s send on a fixed open schedule (${concurrency} connections) and time each read from when it was due (no coordinated omission); the raw row at ${TARGET_READS}/s on the same schedule over one pipelined ioredis connection`,
        `machine load average at the end: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
        `board loaded (Postgres + Redis) in ${loadSeconds.toFixed(1)} s`,
        `CPU µs per read, mix, no updates: ${mixQuiet.cpu}; updates streaming: ${mixStreaming.result.cpu}`,
        `CPU µs per read, all-in-one, no updates: ${allQuiet.cpu}; updates streaming: ${allStreaming.result.cpu}`,
        `Redis time per read (INFO commandstats), mix: ${mixQuiet.redisPerRead.total.toFixed(0)} µs engage, ${rawMixRedis.total.toFixed(0)} µs raw (${rawMixRedis.parts})`,
        `Redis time per read (INFO commandstats), all-in-one: ${allQuiet.redisPerRead.total.toFixed(0)} µs engage, ${rawAllRedis.total.toFixed(0)} µs raw (${rawAllRedis.parts})`,
        `where reads waited, mix at ${TARGET_READS}/s: ${describeStalls(mixAtTarget.result.stalls, SLOW_MS)}`,
        `where reads waited, mix at ${TARGET_READS / 2}/s: ${describeStalls(mixAtHalf.result.stalls, SLOW_MS)}`,
        `Redis memory per player: ${memory.board.toFixed(0)} bytes in the board, ${memory.names.toFixed(0)} bytes in the names hash`,
        ...(options.cpuProfileDir
          ? [`CPU profiles of the reads and updates processes: ${options.cpuProfileDir}`]
          : []),
      ],
    };
  } finally {
    for (const child of processes.reverse()) await child.stop();
    await updateStream.close();
    await cleanUp(pool, redis, keyPrefix, env.environmentId);
    await pool.end();
    await redis.quit();
    await stack.stop();
  }
}

/** The durable record first (one INSERT … SELECT), then the live board in pipelined ZADD/HSET batches. */
async function loadBoard(
  pool: Pool,
  redis: Redis,
  keyPrefix: string,
  env: EnvironmentContext,
): Promise<void> {
  await withTransaction(pool, (client) => replaceDefinitions(client, env.environmentId, [BOARD]));
  await pool.query(
    `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
     VALUES ($1, 'bench', to_timestamp(0), NULL, $2)`,
    [env.environmentId, env.organizationId],
  );
  // In slices: one statement for a million rows can outlast the pool's statement timeout.
  for (let from = 0; from < PLAYERS; from += 100_000) {
    await pool.query(
      `INSERT INTO board_scores (environment_id, board_key, period_start, player_id, aggregation, score, reached_at)
       SELECT $1, 'bench', to_timestamp(0), 'p' || i, 'Sum', (i::bigint * 7919) % 100000, now()
       FROM generate_series($2::int, $3::int - 1) AS i`,
      [env.environmentId, from, Math.min(PLAYERS, from + 100_000)],
    );
  }
  await pool.query('ANALYZE board_scores');
  const board = periodBoardKey(keyPrefix, env.environmentId, 'bench', 0);
  const names = displayNamesKey(keyPrefix, env.environmentId);
  const reachedAt = Date.now();
  for (let from = 0; from < PLAYERS; from += LOAD_BATCH * 10) {
    const pipeline = redis.pipeline();
    for (let b = from; b < Math.min(PLAYERS, from + LOAD_BATCH * 10); b += LOAD_BATCH) {
      const zargs: (string | number)[] = [];
      const hargs: string[] = [];
      for (let i = b; i < Math.min(PLAYERS, b + LOAD_BATCH); i++) {
        zargs.push(encodeRankScore(SCALE, (i * 7919) % 100_000, reachedAt), `p${i}`);
        hargs.push(`p${i}`, `Player ${i}`);
      }
      pipeline.zadd(board, ...zargs);
      pipeline.hset(names, ...hargs);
    }
    await pipeline.exec();
  }
  await redis.set(boardsMarkerKey(keyPrefix, env.environmentId), new Date().toISOString());
}

async function memoryPerPlayer(redis: Redis, keyPrefix: string, environmentId: string) {
  const bytes = async (key: string) => Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
  return {
    board: (await bytes(periodBoardKey(keyPrefix, environmentId, 'bench', 0))) / PLAYERS,
    names: (await bytes(displayNamesKey(keyPrefix, environmentId))) / PLAYERS,
  };
}

/**
 * Applied updates per second, from the consumer's first committed offset to the last, and the CPU
 * snapshot taken at the first (so the process's start is not counted).
 */
async function measureApplied<S>(pool: Pool, topicPrefix: string, total: number, snapshot: () => Promise<S>) {
  const consumed = async () => {
    const { rows } = await pool.query<{ n: string | null }>(
      'SELECT sum(next_offset)::text AS n FROM kafka_offsets WHERE topic = $1',
      [`${topicPrefix}${topics.eventsAccepted.base}`],
    );
    return Number(rows[0]?.n ?? 0);
  };
  let first: { at: number; count: number; cpuBefore: S } | undefined;
  for (;;) {
    const count = await consumed();
    const at = performance.now();
    if (!first && count > 0) first = { at, count, cpuBefore: await snapshot() };
    if (count >= total && first) {
      return {
        perSecond: (count - first.count) / ((at - first.at) / 1000),
        count: count - first.count,
        cpuBefore: first.cpuBefore,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same Redis commands straight through ioredis, every part asked of Redis (nothing cached). */
async function rawReads(
  redisUrl: string,
  keyPrefix: string,
  env: EnvironmentContext,
  kindOf: (i: number) => ReadKind,
  load: { concurrency: number; seconds: number; ratePerSecond?: number | undefined },
) {
  const client = createRedis(redisUrl, { connectionName: 'bench-raw' });
  defineReadScript(client);
  try {
    return await driveAtRate(
      new Recorder(),
      async (_w, i) => {
        const { me, named, top, around } = readOf(i, kindOf(i));
        const read = await readLiveBoard(client, {
          boardKey: periodBoardKey(keyPrefix, env.environmentId, 'bench', 0),
          namesKey: displayNamesKey(keyPrefix, env.environmentId),
          markerKey: boardsMarkerKey(keyPrefix, env.environmentId),
          top,
          around,
          me,
          // The service adds the caller to the named players.
          named: named.length > 0 ? [...new Set([me, ...named])] : [],
          withNames: true,
        });
        if (!read) throw new Error('marker missing');
      },
      load,
    );
  } finally {
    await client.quit();
  }
}

/**
 * The commands a live read issues (the around script's ZREVRANK/ZREVRANGE run inside EVALSHA; a read
 * without Around sends ZREVRANK itself).
 */
const READ_COMMANDS = ['exists', 'zcard', 'zrevrange', 'zrevrank', 'evalsha', 'eval', 'zmscore', 'hmget'];

async function readCommandStats(redis: Redis): Promise<Map<string, { calls: number; usec: number }>> {
  const stats = new Map<string, { calls: number; usec: number }>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (match) stats.set(match[1]!, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return stats;
}

/**
 * Redis time per read, by command, from the server's own counters (other clients running the same
 * commands at the same time would count too). An upper bound: the around script's inner ZREVRANGE is
 * counted both in its own line and in EVALSHA's.
 */
function redisTimePerRead(
  before: Map<string, { calls: number; usec: number }>,
  after: Map<string, { calls: number; usec: number }>,
  reads: number,
) {
  const parts: string[] = [];
  let total = 0;
  for (const name of READ_COMMANDS) {
    const usec = (after.get(name)?.usec ?? 0) - (before.get(name)?.usec ?? 0);
    if (usec <= 0) continue;
    total += usec / reads;
    parts.push(`${name} ${(usec / reads).toFixed(1)}`);
  }
  return { total, parts: parts.join(', ') };
}

async function cleanUp(pool: Pool, redis: Redis, keyPrefix: string, environmentId: string) {
  for (const table of [
    'board_scores',
    'board_periods',
    'leaderboard_definitions',
    'player_event_totals',
    'player_display_names',
  ]) {
    await pool.query(`DELETE FROM ${table} WHERE environment_id = $1`, [environmentId]);
  }
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
