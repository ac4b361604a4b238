import { type AcceptedEvent, type PropertyValue, topicName, topics } from '@engage/contracts';
import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import { connectProducer, consumerGroupId, createKafka, decodeRecord, produceRecords } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { internalHeaders } from '@engage/testkit/stack.ts';
import { createTenant } from '@engage/testkit/tenant.ts';
import { Pool as HttpPool } from 'undici';
import type { WorkloadReport } from '../main.ts';
import { driveOnSchedule, Recorder, type RunSummary, throughputSummary } from '../measure.ts';
import { cpuProfileArgs, processCpuMs } from '../process-cpu.ts';
import { startBenchStack } from '../stack.ts';
import type { WorkloadOptions } from './index.ts';

/** Players entered and drawn by default (`--players` sets another number). */
const DEFAULT_PLAYERS = 3_000;
const MISSIONS = 40;
const PROBE_PLAYERS = 200;
/**
 * How often a probe's progress is read until it shows the probe counted. Every poll is a request to
 * the rules process and a statement on Postgres, on the machine being measured: at 5 ms the polls of
 * the probes in flight were as many statements as the consumer's own. 10 ms overstates each latency
 * by at most 10 ms.
 */
const PROBE_POLL_MS = 10;
/**
 * The load runs this long before the probes start: the latency asked for is the one at a steady
 * 10,000 events/s, not the first seconds in which the idle consumer, the gateway's producer and the
 * connection pools get going (probes sent then waited up to 0.7 s).
 */
const LOAD_WARMUP_SECONDS = 2;
/** Probes sent per second: 200 in a run of 10 s, whose p99 is the second-slowest probe. */
const PROBES_PER_SECOND = 20;
/**
 * Probe reads under way at once, whatever the number of probes waiting: the read load stays what
 * four probes in a closed loop made, instead of growing with the latency it measures (a probe
 * waiting longer makes more polls). When more probes wait, each is polled less often: the latency
 * is overstated a little more, never understated.
 */
const PROBE_READS_AT_ONCE = 4;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney', 'UTC', null];

/**
 * The rules consumer applying accepted events to realistic definitions (40 active missions with
 * count, sum, max and distinct objectives and filters, 3 streaks, every player entered in every
 * mission), beside a raw kafkajs consumer that only reads and decodes the same records. Then the
 * delay from a batch accepted by the gateway to its mission progress being readable, at a steady
 * 10,000 events per second through the gateway.
 */
export async function rules(options: WorkloadOptions): Promise<WorkloadReport> {
  const concurrency = options.concurrency ?? 8;
  const total = Math.max(100_000, 30_000 * options.seconds);
  const players = options.players ?? DEFAULT_PLAYERS;
  const stack = await startBenchStack(['rules', 'gateway'], {
    nodeArgs: { rules: cpuProfileArgs(options.cpuProfileDir, 'rules') },
  });
  const db = createPool({ url: stack.infra.databaseUrl, schema: 'rules', max: 2 });
  const rulesProcess = stack.services.rules!;
  try {
    const tenant = await createTenant(stack.controlPlaneUrl, stack.adminToken, { definition: definition() });
    const env = {
      organizationId: tenant.organizationId,
      environmentId: tenant.live.environmentId,
      environmentKind: 'Live' as const,
    };
    const rulesHttp = new HttpPool(rulesProcess.url, { connections: 16 });
    const readOn =
      (http: HttpPool) =>
      async (playerId: string, path = '/v1/missions') => {
        const request = JSON.stringify({ playerId });
        const headers = { ...internalHeaders(env, { id: playerId }), 'content-type': 'application/json' };
        const res = await http.request({
          method: 'POST',
          path,
          headers: stack.signer.sign({ method: 'POST', url: path, headers, body: request }),
          body: request,
        });
        const body = await res.body.json();
        if (res.statusCode !== 200)
          throw new Error(`mission read: ${res.statusCode} ${JSON.stringify(body)}`);
        return body;
      };
    const read = readOn(rulesHttp);
    // Every player reads the feed once: entered into every mission.
    const entering = await everyOnce(players, 16, (i) => read(player(i)));
    for (let i = 0; i < PROBE_PLAYERS; i++) await read(probePlayer(i), '/v1/missions/probe');

    // Throughput: the events are waiting in the topic when the consumer starts.
    const topic = topicName(topics.eventsAccepted, stack.topicPrefix);
    await rulesProcess.stop();
    // The development Postgres runs without autovacuum: clear what earlier runs and the entering
    // left behind, as autovacuum would on a deployed server.
    await db.query(
      'VACUUM (ANALYZE) player_progress, player_counters, outbox, consumed_records, kafka_offsets',
    );
    const before = await consumed(db, consumerGroupId('rules', stack.topicPrefix), topic);
    await produce(stack.infra.brokers, stack.topicPrefix, env, total, players, concurrency);
    await rulesProcess.restart();
    const backlogCpuBefore = processCpuMs(rulesProcess.pid());
    const applied = await timeConsumption(total, async () => {
      return (await consumed(db, consumerGroupId('rules', stack.topicPrefix), topic)) - before;
    });
    const backlogCpu = cpuPerThousand(
      processCpuMs(rulesProcess.pid()) - backlogCpuBefore,
      applied.operations,
    );
    const raw = await rawConsumer(stack.infra.brokers, topic, total);

    // Latency at 10,000 events per second through the gateway.
    const gateway = new HttpPool(stack.gatewayUrl, { connections: 8 });
    const post = async (events: unknown[]) => {
      const res = await gateway.request({
        method: 'POST',
        path: '/v1/events',
        headers: { authorization: tenant.live.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      const result = (await res.body.json()) as { accepted?: number };
      if (res.statusCode !== 200 || result.accepted !== events.length)
        throw new Error(`status ${res.statusCode}`);
    };
    const LOAD_BATCH = 500;
    let cursor = 0;
    const loadCpuBefore = processCpuMs(rulesProcess.pid());
    const load = driveOnSchedule(
      new Recorder(LOAD_BATCH),
      () => post(Array.from({ length: LOAD_BATCH }, () => httpEvent(player(cursor++ % players), cursor))),
      { seconds: LOAD_WARMUP_SECONDS + options.seconds, ratePerSecond: 10_000 / LOAD_BATCH },
    );
    await new Promise((resolve) => setTimeout(resolve, LOAD_WARMUP_SECONDS * 1000));
    const fromAcceptance = new Recorder();
    fromAcceptance.start();
    // On an open schedule, so a slow stretch gets as many probes as a quick one (4 probes in a
    // closed loop sent fewer while progress was late, and the p99 left out the slow stretches).
    // Probe i uses its own probe player (PROBE_PLAYERS / PROBES_PER_SECOND seconds apart), whose
    // count it expects to reach i's turn.
    const probed = new Array<number>(PROBE_PLAYERS).fill(0);
    let probeReads = 0;
    // Its own connections: a read waits for one of them (first come, first served).
    const probeHttp = new HttpPool(rulesProcess.url, { connections: PROBE_READS_AT_ONCE });
    const readProbe = readOn(probeHttp);
    const probeRead = (playerId: string) => {
      probeReads++;
      return readProbe(playerId, '/v1/missions/probe');
    };
    const probes = driveOnSchedule(
      new Recorder(),
      async (i) => {
        const index = i % PROBE_PLAYERS;
        const expected = ++probed[index]!;
        await post([{ eventKey: 'probe_hit', playerId: probePlayer(index), properties: {} }]);
        // The gateway answered: the event is accepted (and in Kafka).
        const acceptedAt = performance.now();
        for (;;) {
          const mission = (await probeRead(probePlayer(index))) as {
            objectives: { progress: { actual: number } }[];
          };
          if ((mission.objectives[0]?.progress.actual ?? 0) >= expected) break;
          await new Promise((resolve) => setTimeout(resolve, PROBE_POLL_MS));
        }
        fromAcceptance.record(performance.now() - acceptedAt);
      },
      { seconds: options.seconds, ratePerSecond: PROBES_PER_SECOND },
    );
    const [loadSummary, probeSummary] = await Promise.all([load, probes]);
    fromAcceptance.stop();
    const loadCpu = cpuPerThousand(
      processCpuMs(rulesProcess.pid()) - loadCpuBefore,
      loadSummary.operations * LOAD_BATCH + probeSummary.operations,
    );
    await gateway.close();
    await rulesHttp.close();
    await probeHttp.close();

    return {
      workload: 'rules',
      description:
        `${total} accepted events over ${players.toLocaleString('en')} players, each entered in ${MISSIONS} active missions, ` +
        '3 streaks; then 10,000 events/s through the gateway',
      rows: [
        { name: 'entering players (feed reads)', summary: entering, units: 'reads' },
        { name: 'engage rules consumer', summary: applied, units: 'events applied' },
        { name: 'raw kafkajs consumer (decode)', summary: raw, units: 'events decoded' },
        { name: 'gateway load at 10k events/s', summary: loadSummary, units: `batches of ${LOAD_BATCH}` },
        { name: 'sent -> progress readable', summary: probeSummary, units: 'probe events' },
        { name: 'accepted -> progress readable', summary: fromAcceptance.summary(), units: 'probe events' },
      ],
      headline: `applies a backlog of ${total.toLocaleString('en')} events over ${players.toLocaleString('en')} players at ${Math.round(applied.unitsPerSecond).toLocaleString('en')} events/s (${(applied.unitsPerSecond / raw.unitsPerSecond).toFixed(2)}× a consumer that only decodes); at 10,000 events/s through the gateway, progress is readable ${Math.round(fromAcceptance.summary().p99Ms).toLocaleString('en')} ms after acceptance at p99`,
      ratios: { 'engage rules consumer / raw kafkajs consumer': applied.unitsPerSecond / raw.unitsPerSecond },
      notes: [
        'consumer rows: events per second from the first applied (or decoded) record to the last; p-columns unused',
        `latency rows (after ${LOAD_WARMUP_SECONDS} s of load; ${probeSummary.operations} probes, ${PROBES_PER_SECOND} a second on an open schedule): from when the probe event was due to be sent to POST /v1/events (sent), or from the gateway answering that it accepted it (accepted), until a read of the rules service shows it counted (polled every ${PROBE_POLL_MS} ms, at most ${PROBE_READS_AT_ONCE} reads at once; ${probeReads} reads, ${Math.round(probeReads / options.seconds)} a second), while the load runs`,
        `rules process CPU per 1,000 events (user + system, less sensitive than latency to other load on the machine): ${backlogCpu} ms on the backlog, ${loadCpu} ms at 10,000 events/s (with the warm-up and the probes' reads)`,
        ...(options.cpuProfileDir ? [`CPU profile of the rules process: ${options.cpuProfileDir}`] : []),
      ],
    };
  } finally {
    await db.end();
    await stack.stop();
  }
}

const player = (i: number) => `player-${i}`;
const cpuPerThousand = (cpuMs: number, events: number) => Math.round((cpuMs / events) * 1000 * 10) / 10;
const probePlayer = (i: number) => `probe-${i}`;

function definition(): EnvironmentFileInput {
  const missions = Array.from({ length: MISSIONS }, (_, i) => {
    const kind = i % 5;
    const objectives = [
      kind === 0 && { key: 'levels', event: 'level_completed', target: 1_000 + i },
      kind === 1 && {
        key: 'score',
        event: 'level_completed',
        measure: { kind: 'sum', property: 'score' },
        target: 10_000_000,
      },
      kind === 2 && {
        key: 'best',
        event: 'level_completed',
        measure: { kind: 'max', property: 'level' },
        target: 1e9,
      },
      kind === 3 && {
        key: 'hard',
        event: 'level_completed',
        filters: [{ property: 'difficulty', op: 'in', value: ['hard', 'expert'] }],
        target: 500 + i,
      },
      kind === 4 && {
        key: 'spend',
        event: 'purchase_made',
        measure: { kind: 'sum', property: 'amount' },
        target: 1e6,
      },
      i < 4 && {
        key: 'maps',
        event: 'level_completed',
        measure: { kind: 'distinct', property: 'level' },
        target: 40,
      },
    ].filter(Boolean);
    return {
      key: `mission-${i}`,
      name: `Mission ${i}`,
      objectives,
      rewards: [{ points: 10 + i }],
      repeat: i % 10 === 0 ? 'daily' : 'none',
    };
  });
  missions.push({
    key: 'probe',
    name: 'Probe',
    listed: false,
    objectives: [{ key: 'hits', event: 'probe_hit', target: 1e9 }],
    rewards: [],
    repeat: 'none',
  } as never);
  return {
    discovery: false,
    events: [
      {
        key: 'level_completed',
        properties: {
          level: { type: 'number', required: true },
          score: { type: 'number', required: true },
          difficulty: { type: 'string', required: true },
        },
      },
      {
        key: 'purchase_made',
        properties: {
          amount: { type: 'number', required: true },
          currency: { type: 'string', required: true },
        },
      },
      { key: 'probe_hit' },
    ],
    missions,
    streaks: [
      {
        key: 'daily-play',
        name: 'Daily play',
        events: [{ event: 'level_completed' }],
        milestones: [3, 7, 30].map((threshold) => ({ threshold, rewards: [{ points: threshold * 10 }] })),
      },
      {
        key: 'daily-hard',
        name: 'Daily hard',
        events: [
          { event: 'level_completed', filters: [{ property: 'difficulty', op: 'eq', value: 'hard' }] },
        ],
      },
      { key: 'weekly-buyer', name: 'Weekly buyer', period: 'weekly', events: [{ event: 'purchase_made' }] },
    ],
  } as EnvironmentFileInput;
}

const DIFFICULTIES = ['easy', 'normal', 'hard', 'expert'];

function httpEvent(playerId: string, i: number) {
  return i % 4 === 0
    ? { eventKey: 'purchase_made', playerId, properties: { amount: 4.99, currency: 'EUR' } }
    : {
        eventKey: 'level_completed',
        playerId,
        properties: { level: (i % 60) + 1, score: 1_000 + (i % 997), difficulty: DIFFICULTIES[i % 4] },
      };
}

const number = (n: number): PropertyValue => ({
  type: 'Number',
  string: null,
  number: String(n),
  boolean: null,
  dateTime: null,
});
const text = (s: string): PropertyValue => ({
  type: 'String',
  string: s,
  number: null,
  boolean: null,
  dateTime: null,
});

/** Accepted events as the gateway writes them, produced straight to the topic. */
async function produce(
  brokers: string[],
  prefix: string,
  env: { organizationId: string; environmentId: string },
  total: number,
  players: number,
  concurrency: number,
) {
  const kafka = createKafka({ brokers, clientId: 'bench-rules', log: createLogger('bench', 'error') });
  const producer = await connectProducer(kafka);
  const BATCH = 1_000;
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const start = next;
          next += BATCH;
          const now = new Date().toISOString();
          const records: AcceptedEvent[] = [];
          for (let i = start; i < Math.min(start + BATCH, total); i++) {
            const e = httpEvent(player(i % players), i);
            records.push({
              eventId: crypto.randomUUID(),
              organizationId: env.organizationId,
              environmentId: env.environmentId,
              environmentKind: 'Live',
              playerId: e.playerId,
              eventKey: e.eventKey,
              occurredAt: now,
              receivedAt: now,
              timeZone: ZONES[i % ZONES.length] ?? null,
              idempotencyKey: null,
              properties: Object.fromEntries(
                Object.entries(e.properties).map(([k, v]) => [
                  k,
                  typeof v === 'number' ? number(v) : text(v ?? ''),
                ]),
              ),
            });
          }
          await produceRecords(producer, topics.eventsAccepted, prefix, records);
        }
      }),
    );
  } finally {
    await producer.disconnect();
  }
}

async function consumed(db: ReturnType<typeof createPool>, groupId: string, topic: string): Promise<number> {
  const { rows } = await db.query<{ n: string | null }>(
    'SELECT sum(next_offset)::text AS n FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
    [groupId, topic],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Events per second from the first progress seen to `total`, polling `progress` every 20 ms. */
async function timeConsumption(total: number, progress: () => Promise<number>): Promise<RunSummary> {
  let first: number | undefined;
  let done = 0;
  const deadline = performance.now() + 600_000;
  while (done < total && performance.now() < deadline) {
    done = await progress();
    if (done > 0 && first === undefined) first = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return throughputSummary(done, (performance.now() - (first ?? performance.now())) / 1000);
}

/** A kafkajs consumer that only reads and decodes the topic, from the start, until `total` records. */
async function rawConsumer(brokers: string[], topic: string, total: number): Promise<RunSummary> {
  const kafka = createKafka({ brokers, clientId: 'bench-raw-consumer', log: createLogger('bench', 'error') });
  const consumer = kafka.consumer({ groupId: `bench-raw-${crypto.randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let decoded = 0;
  let first: number | undefined;
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      first ??= performance.now();
      for (const message of batch.messages) {
        if (message.value) decodeRecord(topics.eventsAccepted, message.value);
        decoded++;
      }
      if (decoded >= total) finished();
    },
  });
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 600_000))]);
  const seconds = (performance.now() - (first ?? performance.now())) / 1000;
  await consumer.disconnect();
  return throughputSummary(decoded, seconds);
}

/** Runs `op` once for each index with `concurrency` workers, recording each latency. */
async function everyOnce(count: number, concurrency: number, op: (i: number) => Promise<unknown>) {
  const recorder = new Recorder();
  let next = 0;
  recorder.start();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        recorder.record(performance.now() - t0);
      }
    }),
  );
  recorder.stop();
  return recorder.summary();
}
