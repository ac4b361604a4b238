import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import {
  type AcceptedEvent,
  type EnvironmentContext,
  encodePlayerContext,
  INTERNAL_HEADERS,
  topics,
} from '@engage/contracts';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { findRepoRoot } from '@engage/devstack';
import { connectProducer, createKafka, produceRecords } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { createPool, type Pool, withTransaction } from '@engage/postgres';
import { boardsMarkerKey, displayNamesKey, periodBoardKey } from '@engage/query/boards/keys.ts';
import { defineReadScript, readLiveBoard } from '@engage/query/boards/live-read.ts';
import { encodeRankScore } from '@engage/query/domain/rank-score.ts';
import { replaceDefinitions } from '@engage/query/store/definitions.ts';
import { createRedis, type Redis } from '@engage/redis';
import { spawnService } from '@engage/testkit/process.ts';
import { Pool as HttpPool } from 'undici';
import type { WorkloadReport } from '../main.ts';
import { drive, Recorder } from '../measure.ts';
import { startBenchStack } from '../stack.ts';
import type { WorkloadOptions } from './index.ts';

const PLAYERS = 1_000_000;
const LOAD_BATCH = 5_000;
const UPDATES = 250_000;
const UPDATE_PLAYERS = 200_000;
const STREAM_RATE = 5_000;
const NAMED = 50;
const SCALE = { decimals: 0, lowestFirst: false, periodStart: 0, periodEnd: null };
const BOARD = LeaderboardDefinitionSchema.parse({
  key: 'bench',
  name: 'Bench',
  scoreSource: { type: 'Event', event: 'scored', property: 'points' },
  aggregation: 'Sum',
});

/**
 * A plain board of 1,000,000 players in one query process: score updates applied from the events
 * topic (exactly-once consumer, Postgres, then Redis), and reads (Top=10, Around=5, PlayerIds of 50)
 * while updates stream in, beside raw ioredis issuing the same Redis commands on the same keys.
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
  const kafka = createKafka({
    brokers: stack.infra.brokers,
    clientId: 'bench-leaderboards',
    log: createLogger('bench', 'warn'),
  });
  const producer = await connectProducer(kafka);
  let query: Awaited<ReturnType<typeof spawnService>> | undefined;
  try {
    const loadStarted = performance.now();
    await loadBoard(pool, redis, keyPrefix, env);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const memory = await memoryPerPlayer(redis, keyPrefix, env.environmentId);

    // Updates first, on their own: queued in Kafka, then applied by a fresh query process.
    const produce = (events: AcceptedEvent[]) =>
      produceRecords(producer, topics.eventsAccepted, stack.topicPrefix, events);
    for (let i = 0; i < UPDATES; i += 10_000) await produce(updates(env, i, 10_000));
    query = await spawnService(findRepoRoot(), 'query', {
      DATABASE_URL: stack.infra.databaseUrl,
      REDIS_URL: stack.infra.redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      KAFKA_BROKERS: stack.infra.brokers.join(','),
      KAFKA_TOPIC_PREFIX: stack.topicPrefix,
      LOG_LEVEL: 'warn',
    });
    const applied = await measureApplied(pool, stack.topicPrefix, UPDATES);

    // Reads while updates stream in at a fixed rate.
    const http = new HttpPool(query.url, { connections: concurrency });
    const read = async (i: number) => {
      const me = `p${(i * 7919) % PLAYERS}`;
      const named = Array.from(
        { length: NAMED },
        (_, k) => `PlayerIds=p${(i * 31 + k * 104_729) % PLAYERS}`,
      ).join('&');
      const res = await http.request({
        method: 'GET',
        path: `/v1/leaderboards/bench?PlayerId=${me}&Top=10&Around=5&${named}`,
        headers: {
          [INTERNAL_HEADERS.organizationId]: env.organizationId,
          [INTERNAL_HEADERS.environmentId]: env.environmentId,
          [INTERNAL_HEADERS.environmentKind]: env.environmentKind,
          [INTERNAL_HEADERS.player]: encodePlayerContext({
            id: me,
            timeZone: null,
            attributes: {},
            isNew: false,
          }),
        },
      });
      const body = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${body}`);
    };
    const cpuBefore = processCpuMs(query.pid());
    const redisBefore = await readCommandStats(redis);
    const quiet = await drive(new Recorder(), (_w, i) => read(i), { concurrency, seconds: options.seconds });
    const queryCpuPerRead = ((processCpuMs(query.pid()) - cpuBefore) * 1000) / quiet.operations;
    const engageRedisPerRead = redisTimePerRead(redisBefore, await readCommandStats(redis), quiet.operations);
    const streaming = streamUpdates(produce, env, options.seconds);
    const reads = await drive(new Recorder(), (_w, i) => read(i), { concurrency, seconds: options.seconds });
    const streamed = await streaming;
    await http.close();

    const statsBefore = await readCommandStats(redis);
    const raw = await rawReads(stack.infra.redisUrl, keyPrefix, env, concurrency, options.seconds);
    const redisPerRead = redisTimePerRead(statsBefore, await readCommandStats(redis), raw.operations);
    return {
      workload: 'leaderboards',
      description: `a board of ${PLAYERS.toLocaleString('en')} players; reads Top=10, Around=5, PlayerIds of ${NAMED} (concurrency ${concurrency}) while ${STREAM_RATE}/s score updates stream in`,
      rows: [
        { name: 'engage reads, no updates', summary: quiet, units: 'reads' },
        { name: 'engage reads, updates streaming', summary: reads, units: 'reads' },
        { name: 'raw ioredis, same commands', summary: raw, units: 'reads' },
      ],
      ratios: {
        'engage reads (no updates) / raw ioredis': quiet.opsPerSecond / raw.opsPerSecond,
        'engage reads (updates streaming) / raw ioredis': reads.opsPerSecond / raw.opsPerSecond,
      },
      notes: [
        `score updates applied: ${Math.round(applied)} per second (${UPDATES.toLocaleString('en')} events over ${UPDATE_PLAYERS.toLocaleString('en')} players, Kafka → Postgres → Redis, one query process)`,
        `updates streamed during the reads: ${streamed.toLocaleString('en')} (target ${STREAM_RATE}/s); the same process applies them`,
        `machine load average at the end: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`,
        `board loaded (Postgres + Redis) in ${loadSeconds.toFixed(1)} s`,
        `Redis time per read (INFO commandstats): ${redisPerRead.total.toFixed(0)} µs in the raw run (${redisPerRead.parts}); ${engageRedisPerRead.total.toFixed(0)} µs in engage's run without updates`,
        `query process CPU per read (engage, no updates): ${queryCpuPerRead.toFixed(0)} µs`,
        `Redis memory per player: ${memory.board.toFixed(0)} bytes in the board, ${memory.names.toFixed(0)} bytes in the names hash`,
      ],
    };
  } finally {
    await query?.stop();
    await producer.disconnect();
    await cleanUp(pool, redis, keyPrefix, env.environmentId);
    await pool.end();
    await redis.quit();
    await stack.stop();
  }
}

function updates(env: EnvironmentContext, from: number, count: number): AcceptedEvent[] {
  const now = new Date().toISOString();
  return Array.from({ length: count }, (_, k) => ({
    eventId: randomUUID(),
    organizationId: env.organizationId,
    environmentId: env.environmentId,
    environmentKind: env.environmentKind,
    playerId: `p${((from + k) * 7_919) % UPDATE_PLAYERS}`,
    eventKey: 'scored',
    occurredAt: now,
    receivedAt: now,
    timeZone: null,
    properties: {
      points: {
        type: 'Number',
        string: null,
        number: String(1 + ((from + k) % 50)),
        boolean: null,
        dateTime: null,
      },
    },
    idempotencyKey: null,
  }));
}

async function streamUpdates(
  produce: (events: AcceptedEvent[]) => Promise<unknown>,
  env: EnvironmentContext,
  seconds: number,
): Promise<number> {
  const batch = STREAM_RATE / 10;
  const deadline = performance.now() + seconds * 1000;
  let sent = 0;
  while (performance.now() < deadline) {
    const started = performance.now();
    await produce(updates(env, UPDATES + sent, batch));
    sent += batch;
    const wait = 100 - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return sent;
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

/** Applied updates per second, from the consumer's first committed offset to the last. */
async function measureApplied(pool: Pool, topicPrefix: string, total: number): Promise<number> {
  const consumed = async () => {
    const { rows } = await pool.query<{ n: string | null }>(
      'SELECT sum(next_offset)::text AS n FROM kafka_offsets WHERE topic = $1',
      [`${topicPrefix}${topics.eventsAccepted.base}`],
    );
    return Number(rows[0]?.n ?? 0);
  };
  let first: { at: number; count: number } | undefined;
  for (;;) {
    const count = await consumed();
    const at = performance.now();
    if (!first && count > 0) first = { at, count };
    if (count >= total && first) return (count - first.count) / ((at - first.at) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function rawReads(
  redisUrl: string,
  keyPrefix: string,
  env: EnvironmentContext,
  concurrency: number,
  seconds: number,
) {
  const client = createRedis(redisUrl, { connectionName: 'bench-raw' });
  defineReadScript(client);
  try {
    return await drive(
      new Recorder(),
      async (_w, i) => {
        const me = `p${(i * 7919) % PLAYERS}`;
        const named = Array.from({ length: NAMED }, (_, k) => `p${(i * 31 + k * 104_729) % PLAYERS}`);
        const read = await readLiveBoard(client, {
          boardKey: periodBoardKey(keyPrefix, env.environmentId, 'bench', 0),
          namesKey: displayNamesKey(keyPrefix, env.environmentId),
          markerKey: boardsMarkerKey(keyPrefix, env.environmentId),
          top: 10,
          around: 5,
          me,
          named,
          withNames: true,
        });
        if (!read) throw new Error('marker missing');
      },
      { concurrency, seconds },
    );
  } finally {
    await client.quit();
  }
}

/** CPU time (user + system) a process used so far, in ms, from /proc (Linux). */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS_PER_SECOND = 100;

/** The commands a live read issues (the around script's ZREVRANK/ZREVRANGE run inside EVALSHA). */
const READ_COMMANDS = ['exists', 'zcard', 'zrevrange', 'evalsha', 'eval', 'zmscore', 'hmget'];

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
    'player_event_counts',
    'player_event_sums',
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
