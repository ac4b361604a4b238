import { availableParallelism } from 'node:os';
import { createPool } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { Pool as HttpPool } from 'undici';
import { CpuMeter, cpuPerUnit, machineBusyShare } from '../cpu-meter.ts';
import type { WorkloadReport } from '../main.ts';
import { driveOnSchedule, Recorder } from '../measure.ts';
import { cpuProfileArgs } from '../process-cpu.ts';
import { startBenchStack } from '../stack.ts';
import { eventConsumerLag } from './consumer-lag.ts';
import type { WorkloadOptions } from './index.ts';
import { type ForwardedRequest, innerHeaders } from './inner-request.ts';
import { playerDraw, playerId } from './player-draws.ts';
import { PARTITIONS_AT_ONCE, rawPipeline } from './raw-pipeline.ts';
import { eventsBody, levelCompleted, seedEnvironment } from './seeded-players.ts';
import { DEFAULT_PLAYERS } from './through-gateway.ts';

/** Offered event rates, events/s, in the order tried. */
const STEPS = [2_500, 5_000, 7_500, 10_000, 15_000, 20_000, 25_000];
/** The target rate, events/s: kept fresh at p99 ≤ 1 s in rules and query. */
const TARGET_RATE = 15_000;
/** Events per POST /v1/events of the load. */
const LOAD_BATCH = 500;
/**
 * Load requests under way at once; with the probes' PROBE_SENDS_AT_ONCE, no more than the 16 an
 * organization may have under way.
 */
const LOAD_CONNECTIONS = 12;
const PROBE_SENDS_AT_ONCE = 4;
/** The freshness bound: accepted → readable, p99. */
const FRESHNESS_P99_MS = 1_000;
/** A step's load runs this long before its probes start, so they see the steady state. */
const WARMUP_SECONDS = 2;
const PROBE_PLAYERS = 200;
const PROBES_PER_SECOND = 20;
/** How often a probe's reads are repeated until they show it counted (overstates by at most this). */
const PROBE_POLL_MS = 10;
/** Reads under way at once per service, whatever the number of probes waiting. */
const PROBE_READS_AT_ONCE = 4;
/** A probe not readable by then counts as an error (the step is far past its bound). */
const PROBE_GIVE_UP_MS = 30_000;
/** How long the consumers may take to finish a step's events before the next step. */
const STEP_DRAIN_TIMEOUT_MS = 60_000;

const probePlayer = (i: number) => `probe-${i}`;

/**
 * The whole pipeline at stepped offered rates: events uniform over the seeded players through the
 * gateway on an open schedule, with rules and query applying them, and probe events whose mission
 * progress (rules) and board score (query) are read until they show; the highest step at which the
 * gateway kept up and both stayed fresh within 1 s at p99. Beside it, a raw reference pipeline
 * applying the same topic (raw-pipeline.ts).
 */
export async function pipeline(options: WorkloadOptions): Promise<WorkloadReport> {
  const players = options.players ?? DEFAULT_PLAYERS;
  const { seconds } = options;
  const steps = options.steps ?? STEPS;
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const stack = await startBenchStack(['rules', 'ledger', 'query', 'gateway'], {
    nodeArgs: {
      rules: cpuProfileArgs(options.cpuProfileDir, 'rules'),
      query: cpuProfileArgs(options.cpuProfileDir, 'query'),
    },
  });
  const db = createPool({ url: stack.infra.databaseUrl, schema: 'public', max: 2 });
  const lag = await eventConsumerLag(stack, db);
  const redis = createRedis(stack.infra.redisUrl, { connectionName: 'bench-cpu' });
  const meter = new CpuMeter({
    processes: Object.fromEntries(
      (['gateway', 'rules', 'query', 'ledger'] as const).map((name) => [
        name,
        () => stack.services[name]!.pid(),
      ]),
    ),
    postgresApplications: ['gateway', 'rules', 'query', 'ledger'],
    db,
    redis,
  });
  const pools: HttpPool[] = [];
  const pool = (url: string, connections: number) => {
    const created = new HttpPool(url, { connections });
    pools.push(created);
    return created;
  };
  try {
    const probes = Array.from({ length: PROBE_PLAYERS }, (_, i) => probePlayer(i));
    const { tenant, env } = await seedEnvironment(stack, db, lag, { players, probes, log });
    const load = pool(stack.gatewayUrl, LOAD_CONNECTIONS);
    const probeSends = pool(stack.gatewayUrl, PROBE_SENDS_AT_ONCE);
    const rulesReads = pool(stack.services.rules!.url, PROBE_READS_AT_ONCE);
    const queryReads = pool(stack.services.query!.url, PROBE_READS_AT_ONCE);
    /** The first failure of the run, to explain a step's errors. */
    let firstError: string | undefined;
    const explained = async <T>(work: Promise<T>) => {
      try {
        return await work;
      } catch (err) {
        firstError ??= err instanceof Error ? err.message : String(err);
        throw err;
      }
    };
    const postEvents = async (http: HttpPool, items: string[]) => {
      const res = await http.request({
        method: 'POST',
        path: '/v1/events',
        headers: { authorization: tenant.live.apiKey, 'content-type': 'application/json' },
        body: eventsBody(items),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200 || (JSON.parse(text) as { accepted?: number }).accepted !== items.length)
        throw new Error(`status ${res.statusCode}: ${text.slice(0, 300)}`);
    };
    const readInner = async <T>(http: HttpPool, player: string, request: ForwardedRequest) => {
      const res = await http.request({
        ...request,
        headers: innerHeaders(stack.signer, env, player, request),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${request.path}: ${res.statusCode} ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    };
    const missionProgress = async (player: string) => {
      const mission = await readInner<{ objectives: { progress: { actual: number } }[] }>(
        rulesReads,
        player,
        {
          method: 'POST',
          path: '/v1/missions/probe',
          body: JSON.stringify({ playerId: player }),
        },
      );
      return mission.objectives[0]?.progress.actual ?? 0;
    };
    const boardScore = async (player: string) => {
      const view = await readInner<{ leaderboard: { me: { score: number | null } | null } }>(
        queryReads,
        player,
        {
          method: 'GET',
          path: `/v1/leaderboards/probe?PlayerId=${player}&Top=0`,
        },
      );
      return view.leaderboard.me?.score ?? 0;
    };
    /** Ms from `since` until `read` shows at least `expected`. */
    const freshness = async (read: () => Promise<number>, expected: number, since: number) => {
      for (;;) {
        if ((await read()) >= expected) return performance.now() - since;
        if (performance.now() - since > PROBE_GIVE_UP_MS)
          throw new Error(`not readable in ${PROBE_GIVE_UP_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, PROBE_POLL_MS));
      }
    };

    const draw = playerDraw('uniform', players);
    const probed = new Array<number>(PROBE_PLAYERS).fill(0);
    let probeCount = 0;
    const rows: WorkloadReport['rows'] = [];
    const notes: string[] = [];
    const cpuNotes: string[] = [];
    let highest = 0;
    /** Every step so far was kept (with --keep-going, steps after one not kept do not count). */
    let allKept = true;
    for (const rate of steps) {
      const cpuBefore = await meter.snapshot();
      const loadRun = driveOnSchedule(
        new Recorder(LOAD_BATCH),
        async (i) => {
          const items: string[] = [];
          for (let k = 0; k < LOAD_BATCH; k++) items.push(levelCompleted(playerId(draw()), i + k));
          await explained(postEvents(load, items));
        },
        { seconds: WARMUP_SECONDS + seconds, ratePerSecond: rate / LOAD_BATCH },
      );
      await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
      const toRules = new Recorder();
      const toQuery = new Recorder();
      toRules.start();
      toQuery.start();
      const probeRun = driveOnSchedule(
        new Recorder(),
        async () => {
          const index = probeCount++ % PROBE_PLAYERS;
          const expected = ++probed[index]!;
          const player = probePlayer(index);
          await explained(postEvents(probeSends, [`{"eventKey":"probe_hit","playerId":"${player}"}`]));
          const acceptedAt = performance.now();
          const outcomes = await Promise.allSettled([
            explained(freshness(() => missionProgress(player), expected, acceptedAt)).then((ms) =>
              toRules.record(ms),
            ),
            explained(freshness(() => boardScore(player), expected, acceptedAt)).then((ms) =>
              toQuery.record(ms),
            ),
          ]);
          if (outcomes[0].status === 'rejected') toRules.errors++;
          if (outcomes[1].status === 'rejected') toQuery.errors++;
          const failed = outcomes.find((o) => o.status === 'rejected');
          if (failed) throw failed.reason;
        },
        { seconds, ratePerSecond: PROBES_PER_SECOND },
      );
      const [loadSummary, probeSummary] = await Promise.all([loadRun, probeRun]);
      toRules.stop();
      toQuery.stop();
      const cpu = await meter.since(cpuBefore);
      const accepted = loadSummary.operations * LOAD_BATCH + probeSummary.operations;
      const rules = toRules.summary();
      const query = toQuery.summary();
      const label = `${rate.toLocaleString('en')} ev/s`;
      const busy = machineBusyShare(cpu, WARMUP_SECONDS + seconds, availableParallelism());
      cpuNotes.push(
        `${label}: the machine ${(busy * 100).toFixed(0)} % busy; CPU µs per 1,000 accepted events: ${cpuPerUnit(cpu, accepted, 1_000)}`,
      );
      rows.push(
        { name: `${label} gateway load`, summary: loadSummary, units: `batches of ${LOAD_BATCH}` },
        { name: `${label} fresh: rules`, summary: rules, units: 'probes: accepted -> mission progress' },
        { name: `${label} fresh: query`, summary: query, units: 'probes: accepted -> board score' },
      );
      const kept =
        loadSummary.errors === 0 &&
        probeSummary.errors === 0 &&
        loadSummary.p99Ms <= FRESHNESS_P99_MS &&
        rules.p99Ms <= FRESHNESS_P99_MS &&
        query.p99Ms <= FRESHNESS_P99_MS;
      log(
        `${label}: load p99 ${loadSummary.p99Ms} ms, rules p99 ${rules.p99Ms} ms, query p99 ${query.p99Ms} ms, errors ${loadSummary.errors}/${probeSummary.errors}: ${kept ? 'kept up' : 'fell behind'}`,
      );
      if (!kept) {
        notes.push(
          allKept
            ? `${label} is the first step that did not keep up${options.keepGoing ? '' : '; no higher step was tried'}`
            : `${label} did not keep up either`,
        );
        if (firstError) notes.push(`the first failure: ${firstError}`);
        if (!options.keepGoing) break;
        firstError = undefined;
        allKept = false;
      } else if (allKept) highest = rate;
      if (!(await lag.caughtUp(STEP_DRAIN_TIMEOUT_MS)) && !options.keepGoing) {
        notes.push(
          `after ${label} rules and query were still behind (${JSON.stringify(await lag.lag())}) ${STEP_DRAIN_TIMEOUT_MS / 1000} s later; no higher step was tried`,
        );
        break;
      }
    }
    for (const http of pools.splice(0)) await http.close();
    if (!(await lag.caughtUp(STEP_DRAIN_TIMEOUT_MS)))
      notes.push('the raw reference ran while rules or query still applied the last step');

    const raw = await rawPipeline(stack);
    rows.push({ name: 'raw reference pipeline', summary: raw, units: 'events applied' });
    return {
      workload: 'pipeline',
      description: `events uniform over ${players.toLocaleString('en')} existing players through the gateway at stepped offered rates (${steps.map((s) => s.toLocaleString('en')).join(', ')} events/s, batches of ${LOAD_BATCH}, open schedule), rules and query applying them; the highest step at which the gateway kept up and accepted -> readable stayed within ${FRESHNESS_P99_MS} ms at p99, beside a raw reference pipeline`,
      rows,
      headline:
        highest > 0
          ? `keeps ${highest.toLocaleString('en')} events/s fresh (p99 ≤ ${FRESHNESS_P99_MS} ms in rules and query) over ${players.toLocaleString('en')} players; ${(highest / raw.unitsPerSecond).toFixed(2)}× the raw reference pipeline of the same run (${Math.round(raw.unitsPerSecond).toLocaleString('en')} events/s)`
          : `keeps none of the offered rates fresh (from ${steps[0]!.toLocaleString('en')} events/s) over ${players.toLocaleString('en')} players; the raw reference pipeline of the same run applied ${Math.round(raw.unitsPerSecond).toLocaleString('en')} events/s`,
      ratios: {
        'highest rate kept fresh / raw reference pipeline': highest / raw.unitsPerSecond,
        [`highest rate kept fresh / ${TARGET_RATE.toLocaleString('en')} events/s`]: highest / TARGET_RATE,
      },
      notes: [
        `a step is kept when its load batches (timed from when each was due, so a gateway behind schedule counts) and both freshness rows have p99 ≤ ${FRESHNESS_P99_MS} ms and nothing failed; each step runs ${WARMUP_SECONDS} s of load before ${seconds} s of probes, and the next starts once rules and query have applied everything`,
        `"fresh" rows: ${PROBES_PER_SECOND} probe events a second on an open schedule (over ${PROBE_PLAYERS} probe players), each timed from the gateway accepting it until the rules service shows it in the probe mission's progress, and the query service in the probe board's score (read straight from each service, every ${PROBE_POLL_MS} ms, at most ${PROBE_READS_AT_ONCE} reads at once per service); a probe not readable in ${PROBE_GIVE_UP_MS / 1000} s is an error`,
        'the gateway was not restarted after seeding: it keeps every player it has seen this month, as a replica that has been serving them does',
        `the load sends at most ${LOAD_CONNECTIONS} batches at once and the probes ${PROBE_SENDS_AT_ONCE}: within the organization's limit of requests under way`,
        `raw reference: a kafkajs consumer of the same topic from its start (${raw.operations.toLocaleString('en')} events: the seeding, every step and the probes), decoding each record with the project's codec and applying each partition batch with one set-based Postgres upsert and one Redis pipeline, ${PARTITIONS_AT_ONCE} partition batches at once; its rate is over that backlog, the most it can apply`,
        `highest rate kept fresh: ${highest.toLocaleString('en')} events/s offered (0: no step was kept)`,
        ...notes,
        "CPU of each part over a step (its warm-up and probes included; the consumers apply what the step accepted as it runs), from /proc, Postgres split by the backends of each service's pool (application_name), Redis from INFO cpu:",
        ...cpuNotes,
      ],
    };
  } finally {
    for (const http of pools) await http.close();
    await redis.quit();
    await lag.close();
    await db.end();
    await stack.stop();
  }
}
