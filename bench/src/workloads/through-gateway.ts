import { randomUUID } from 'node:crypto';
import { ROUTES } from '@engage/contracts/http/routes.ts';
import { createPool } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { forgetStatistics } from '@engage/testkit/plan-check.ts';
import { Pool as HttpPool } from 'undici';
import { startBareProxy } from '../bare-proxy/launch.ts';
import { CpuMeter, type CpuSpent, cpuPerUnit } from '../cpu-meter.ts';
import { GetClient } from '../get-client.ts';
import type { WorkloadReport } from '../main.ts';
import { drive, Recorder, type RunSummary } from '../measure.ts';
import { cpuProfileArgs } from '../process-cpu.ts';
import { startBenchStack } from '../stack.ts';
import { eventConsumerLag } from './consumer-lag.ts';
import type { WorkloadOptions } from './index.ts';
import { type ForwardedRequest, innerHeaders } from './inner-request.ts';
import { DISTRIBUTIONS, type Distribution, playerDraw, playerId } from './player-draws.ts';
import { EVENT_BATCH, eventsBody, everyOnce, levelCompleted, seedEnvironment } from './seeded-players.ts';

export const DEFAULT_PLAYERS = 100_000;
/** The request kinds also measured on never-analyzed tables. */
const NEVER_ANALYZED_KINDS = ['points', 'leaderboard', 'missions', 'adjustment'];
const SCHEMAS = ['gateway', 'rules', 'ledger', 'query'];
/** Requests per request kind and target, and event batches, sent for the hot player before the rows. */
const WARM_UP_REQUESTS = 200;
const WARM_UP_BATCHES = 16;
/** How long the consumers may take to apply the ingest rows' events before the requests are measured. */
const INGEST_APPLY_TIMEOUT_MS = 5 * 60_000;

type Owner = 'rules' | 'ledger' | 'query';

/** One kind of request a game server makes, as sent to the gateway (and forwarded verbatim). */
interface RequestKind {
  name: string;
  /** operationId of its route: the answer is checked against the route's response schema. */
  operation: string;
  owner: Owner;
  /** Each one writes one ledger journal entry. */
  writes?: true;
  request(player: string, i: number): ForwardedRequest;
}

const post = (path: string, body: unknown): ForwardedRequest => ({
  method: 'POST',
  path,
  body: JSON.stringify(body),
});

const KINDS: readonly RequestKind[] = [
  {
    name: 'points',
    operation: 'getPointsBalance',
    owner: 'ledger',
    request: (p) => ({ method: 'GET', path: `/v1/points?PlayerId=${p}` }),
  },
  {
    name: 'leaderboard',
    operation: 'getLeaderboard',
    owner: 'query',
    request: (p) => ({ method: 'GET', path: `/v1/leaderboards/levels?PlayerId=${p}&Top=10&Around=5` }),
  },
  {
    name: 'missions',
    operation: 'listMissions',
    owner: 'rules',
    request: (p) => post('/v1/missions', { playerId: p }),
  },
  {
    name: 'streaks',
    operation: 'listStreaks',
    owner: 'rules',
    request: (p) => ({ method: 'GET', path: `/v1/streaks?PlayerId=${p}` }),
  },
  {
    name: 'shop',
    operation: 'listMarketplaceItems',
    owner: 'ledger',
    request: (p) => ({ method: 'GET', path: `/v1/marketplace-items?PlayerId=${p}` }),
  },
  {
    name: 'adjustment',
    operation: 'adjustPoints',
    owner: 'ledger',
    writes: true,
    request: (p, i) =>
      post('/v1/points/adjustments', {
        playerId: p,
        amount: i % 4 === 3 ? -1 : 5,
        reason: 'bench',
        idempotencyKey: randomUUID(),
      }),
  },
  {
    name: 'purchase',
    operation: 'purchaseMarketplaceItem',
    owner: 'ledger',
    writes: true,
    request: (p) =>
      post('/v1/marketplace-items/gem/purchases', { playerId: p, idempotencyKey: randomUUID() }),
  },
];

/** Where a row sends its requests, and with which headers. */
interface Target {
  label: string;
  client: GetClient;
  url: string;
  headers(player: string, request: ForwardedRequest): Record<string, string>;
}

type Row = WorkloadReport['rows'][number];

/**
 * What a caller gets: every request kind through the gateway with players drawn from one hot
 * player, Zipf (s = 1) and uniform over the seeded players, each beside the same request sent
 * straight to the owning service with the headers the gateway would add; event batches through
 * the gateway by the same three draws; and the gateway's HTTP floor (GET /healthz), all in one run.
 */
export async function throughGateway(options: WorkloadOptions): Promise<WorkloadReport> {
  const concurrency = options.concurrency ?? 16;
  const players = options.players ?? DEFAULT_PLAYERS;
  const { seconds } = options;
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  // The profile of the gateway restarted after seeding replaces the seeding one: it covers the rows.
  const stack = await startBenchStack(['rules', 'ledger', 'query', 'gateway'], {
    nodeArgs: { gateway: cpuProfileArgs(options.cpuProfileDir, 'gateway') },
  });
  const db = createPool({ url: stack.infra.databaseUrl, schema: 'public', max: 2 });
  const lag = await eventConsumerLag(stack, db);
  const clients: GetClient[] = [];
  const stops: (() => Promise<void>)[] = [];
  try {
    const seeded = await seedEnvironment(stack, db, lag, { players, probes: [], log });
    const { tenant, env } = seeded;
    // A gateway that has not just seen every player: the players
    // exist, as they would for a gateway replica that started since they last played.
    await stack.services.gateway!.stop();
    await stack.services.gateway!.restart();
    const bareProxy = await startBareProxy(stack, env, concurrency);
    stops.push(() => bareProxy.stop());
    const redis = createRedis(stack.infra.redisUrl, { connectionName: 'bench-cpu' });
    stops.push(async () => void (await redis.quit()));
    const meter = new CpuMeter({
      processes: {
        gateway: () => stack.services.gateway!.pid(),
        'bare proxy': () => bareProxy.pid(),
        rules: () => stack.services.rules!.pid(),
        ledger: () => stack.services.ledger!.pid(),
        query: () => stack.services.query!.pid(),
      },
      postgresApplications: ['gateway', 'rules', 'ledger', 'query'],
      db,
      redis,
    });

    const gatewayTarget: Target = {
      label: 'gateway',
      client: track(clients, new GetClient(stack.gatewayUrl, concurrency)),
      url: stack.gatewayUrl,
      headers: (_player, request) =>
        request.body === undefined
          ? { authorization: tenant.live.apiKey }
          : gatewayPostHeaders(tenant.live.apiKey),
    };
    const bareProxyTarget: Target = {
      label: 'bare proxy',
      client: track(clients, new GetClient(bareProxy.url, concurrency)),
      url: bareProxy.url,
      headers: (_player, request): Record<string, string> =>
        request.body === undefined ? {} : { 'content-type': 'application/json' },
    };
    const innerTargets = Object.fromEntries(
      (['rules', 'ledger', 'query'] as const).map((owner) => {
        const url = stack.services[owner]!.url;
        const target: Target = {
          label: `${owner} direct`,
          client: track(clients, new GetClient(url, concurrency)),
          url,
          headers: (player, request) => innerHeaders(stack.signer, env, player, request),
        };
        return [owner, target];
      }),
    ) as Record<Owner, Target>;

    const send = (target: Target, kind: RequestKind, player: string, i: number) => {
      const request = kind.request(player, i);
      return target.client.send(request.method, request.path, target.headers(player, request), request.body);
    };
    const ingest = new HttpPool(stack.gatewayUrl, { connections: concurrency });
    const sendEvents = async (draw: () => number, i: number) => {
      const items: string[] = [];
      for (let k = 0; k < EVENT_BATCH; k++) items.push(levelCompleted(playerId(draw()), i + k));
      const res = await ingest.request({
        method: 'POST',
        path: '/v1/events',
        headers: gatewayPostHeaders(tenant.live.apiKey),
        body: eventsBody(items),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200 || (JSON.parse(text) as { accepted?: number }).accepted !== EVENT_BATCH)
        throw new Error(`status ${res.statusCode}: ${text.slice(0, 300)}`);
    };

    // Not measured: the restarted gateway's connections, Kafka producer and compiled code warm up on
    // the hot player alone, and every target's answer is checked.
    const hot = playerDraw('hot', players);
    await everyOnce(WARM_UP_BATCHES, concurrency, (i) => sendEvents(hot, i));
    const warmUp = async () => {
      for (const kind of KINDS) {
        for (const target of [gatewayTarget, bareProxyTarget, innerTargets[kind.owner]]) {
          await checkAnswer(target, kind);
          await everyOnce(WARM_UP_REQUESTS, concurrency, (i) => send(target, kind, playerId(0), i));
        }
      }
    };
    await warmUp();

    const rows: Row[] = [];
    const failures: string[] = [];
    const cpuNotes: string[] = [];
    const row = (name: string, summary: RunSummary, units: string, firstError: string | undefined) => {
      rows.push({ name, summary, units });
      if (firstError) failures.push(`${name}: ${summary.errors} errors, the first: ${firstError}`);
      log(`${name}: ${summary.opsPerSecond} /s, p99 ${summary.p99Ms} ms, ${summary.errors} errors`);
    };

    const floor = await measure((_i) => gatewayTarget.client.get('/healthz', {}), { concurrency, seconds });
    row('gateway /healthz (HTTP floor)', floor.summary, 'requests', floor.firstError);

    const ingestRates: Partial<Record<Distribution, RunSummary>> = {};
    const ingestCpu: Partial<Record<Distribution, CpuSpent>> = {};
    for (const distribution of DISTRIBUTIONS) {
      const draw = playerDraw(distribution, players);
      const { result: run, cpu } = await meter.around(() =>
        measure((i) => sendEvents(draw, i), { concurrency, seconds, unitsPerOp: EVENT_BATCH }),
      );
      ingestRates[distribution] = run.summary;
      ingestCpu[distribution] = cpu;
      cpuNotes.push(
        `CPU µs per 1,000 events, events ${distribution} through the gateway: ${cpuPerUnit(cpu, run.summary.operations * EVENT_BATCH, 1_000)}`,
      );
      row(`events ${distribution}: gateway`, run.summary, `batches of ${EVENT_BATCH}`, run.firstError);
    }
    await ingest.close();
    const applyStarted = performance.now();
    const applied = await lag.caughtUp(INGEST_APPLY_TIMEOUT_MS);
    const applySeconds = (performance.now() - applyStarted) / 1000;

    const journalEntries = async () => {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM ledger.journal WHERE environment_id = $1',
        [env.environmentId],
      );
      return rows[0]?.n ?? 0;
    };
    const journalBefore = await journalEntries();
    // Tables as a fresh deployment or a big new tenant leaves them: filled, never analyzed. Every
    // service restarts (no plan cached, no player known), so the gateway has seen none of the players.
    await stack.tableMaintenance.pause();
    for (const schema of SCHEMAS) await forgetStatistics(db, schema);
    for (const service of Object.values(stack.services)) {
      await service.stop();
      await service.restart();
    }
    await warmUp();
    const ratios: Record<string, number> = {};
    let writes = 0;
    for (const kind of KINDS.filter((k) => NEVER_ANALYZED_KINDS.includes(k.name))) {
      const draw = playerDraw('uniform', players);
      const opsPerSecond: Partial<Record<string, number>> = {};
      for (const target of [gatewayTarget, innerTargets[kind.owner]]) {
        const { result: run, cpu } = await meter.around(() =>
          measure((i) => send(target, kind, playerId(draw()), i), { concurrency, seconds }),
        );
        opsPerSecond[target.label] = run.summary.opsPerSecond;
        if (kind.writes) writes += run.summary.operations;
        const name = `${kind.name} uniform, never analyzed: ${target.label}`;
        row(name, run.summary, 'requests', run.firstError);
        cpuNotes.push(`CPU µs per request, ${name}: ${cpuPerUnit(cpu, run.summary.operations)}`);
      }
      ratios[`${kind.name} uniform, never analyzed: gateway / ${kind.owner} direct`] =
        opsPerSecond.gateway! / opsPerSecond[`${kind.owner} direct`]!;
    }
    // Analyzed from here on, and a gateway restarted again: the players are unseen once more.
    await stack.tableMaintenance.resume();
    await stack.services.gateway!.stop();
    await stack.services.gateway!.restart();
    await warmUp();

    for (const kind of KINDS) {
      for (const distribution of DISTRIBUTIONS) {
        const draw = playerDraw(distribution, players);
        const results: Partial<Record<string, RunSummary>> = {};
        // The bare proxy, the reference for what any hop costs, runs beside the uniform rows only.
        const targets =
          distribution === 'uniform'
            ? [gatewayTarget, bareProxyTarget, innerTargets[kind.owner]]
            : [gatewayTarget, innerTargets[kind.owner]];
        for (const target of targets) {
          const { result: run, cpu } = await meter.around(() =>
            measure((i) => send(target, kind, playerId(draw()), i), { concurrency, seconds }),
          );
          results[target.label] = run.summary;
          if (kind.writes) writes += run.summary.operations;
          row(`${kind.name} ${distribution}: ${target.label}`, run.summary, 'requests', run.firstError);
          if (distribution === 'uniform') {
            cpuNotes.push(
              `CPU µs per request, ${kind.name} uniform through ${target.label}: ${cpuPerUnit(cpu, run.summary.operations)}`,
            );
          }
        }
        if (distribution === 'uniform') {
          const direct = results[`${kind.owner} direct`]!.opsPerSecond;
          ratios[`${kind.name} uniform: gateway / ${kind.owner} direct`] =
            results.gateway!.opsPerSecond / direct;
          ratios[`${kind.name} uniform: bare proxy / ${kind.owner} direct (reference)`] =
            results['bare proxy']!.opsPerSecond / direct;
        }
      }
    }
    const journaled = (await journalEntries()) - journalBefore;
    ratios['events uniform / events hot (through the gateway)'] =
      ingestRates.uniform!.unitsPerSecond / ingestRates.hot!.unitsPerSecond;
    const gatewayCpuPerEvent = (d: Distribution) =>
      ingestCpu[d]!.processes.gateway! / ingestRates[d]!.operations;
    ratios["events: the gateway's own CPU per event, hot / uniform"] =
      gatewayCpuPerEvent('hot') / gatewayCpuPerEvent('uniform');

    return {
      workload: 'through-gateway',
      headline: headlineOf(ratios, players),
      description: `every request kind through the gateway beside the same request straight to its owning service, players drawn hot (one), Zipf (s = 1) and uniform over ${players.toLocaleString('en')} existing players, concurrency ${concurrency}, ${seconds} s a row; event batches of ${EVENT_BATCH} by the same draws; the gateway's /healthz floor`,
      rows,
      ratios,
      notes: [
        `"direct" rows send the request the gateway would forward (same method, path and body) to the owning service with the internal headers the gateway adds; every target's answer was checked against the route's response schema before its rows, and each target warmed up with ${WARM_UP_REQUESTS} requests for the hot player (${WARM_UP_BATCHES} event batches for the gateway's ingest)`,
        `seeding (not measured): a missions read entering each player in the mission, then each player's first event through POST /v1/events (creating it, starting its streak, whose milestone credits it points, and putting it on the board); rules, query and the ledger had applied all of it before the first row`,
        'the gateway was restarted after seeding, so its caches hold no player at the start (the players exist, as for a replica started since they last played)',
        `"never analyzed" rows ran after the event rows on the same tables with their statistics forgotten (as CREATE TABLE and CREATE INDEX on empty tables leave them, and as a server without autovacuum keeps them) and every service restarted (no plan cached, no player known); then the database was analyzed and the gateway restarted again before the other request rows, so their players were unseen too`,
        'the event rows ran first, after /healthz; the request rows then waited for rules and query to apply those events',
        applied
          ? `rules and query applied the event rows' events in ${applySeconds.toFixed(1)} s before the request rows`
          : `rules and query were still behind after ${applySeconds.toFixed(0)} s (${JSON.stringify(await lag.lag())}); the request rows ran beside the backlog`,
        'rows of one request kind and draw run back to back: the gateway first, then (uniform only) the bare proxy, then the owning service directly',
        '"bare proxy" rows: a Node process of the bench (bench/src/bare-proxy) that reads the request and its player id, signs the internal headers and forwards with undici to the owning service, nothing else: the same-run reference for what one HTTP hop in Node costs on this machine',
        `${journaled === writes ? 'as expected, ' : 'MISMATCH: '}the adjustment and purchase rows answered ${writes.toLocaleString('en')} operations 200 and the ledger journal gained ${journaled.toLocaleString('en')} entries`,
        'targets (ratios): reads and writes uniform through the gateway ≥ 0.5× the owning service directly; events uniform ≥ 0.7× hot',
        ...cpuNotes,
        ...(options.cpuProfileDir ? [`CPU profile of the restarted gateway: ${options.cpuProfileDir}`] : []),
        ...failures,
      ],
    };
  } finally {
    for (const client of clients) await client.close();
    for (const stop of stops.reverse()) await stop();
    await lag.close();
    await db.end();
    await stack.stop();
  }
}

/** The ranges of the gateway's and the bare hop's ratios to the owning services, in one sentence. */
function headlineOf(ratios: Record<string, number>, players: number): string {
  const range = (pick: (name: string) => boolean) => {
    const values = Object.entries(ratios)
      .filter(([name]) => pick(name))
      .map(([, value]) => value);
    return `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}×`;
  };
  const gateway = (name: string) => name.includes(': gateway / ');
  return [
    `uniform over ${players.toLocaleString('en')} players, reads and writes through the gateway reach ${range((n) => gateway(n) && !n.includes('never analyzed'))} the owning service directly`,
    `a bare Node hop ${range((n) => n.includes('bare proxy /'))}`,
    `on never-analyzed tables ${range((n) => gateway(n) && n.includes('never analyzed'))}`,
    `events uniform ${ratios['events uniform / events hot (through the gateway)']!.toFixed(2)}× hot`,
  ].join('; ');
}

const gatewayPostHeaders = (apiKey: string) => ({
  authorization: apiKey,
  'content-type': 'application/json',
});

function track(clients: GetClient[], client: GetClient): GetClient {
  clients.push(client);
  return client;
}

/** `op` in a closed loop (`drive`), with the first failure's message kept to explain the errors. */
async function measure(
  op: (i: number) => Promise<void>,
  options: { concurrency: number; seconds: number; unitsPerOp?: number },
): Promise<{ summary: RunSummary; firstError: string | undefined }> {
  let firstError: string | undefined;
  const summary = await drive(
    new Recorder(options.unitsPerOp),
    async (_w, i) => {
      try {
        await op(i);
      } catch (err) {
        firstError ??= err instanceof Error ? err.message : String(err);
        throw err;
      }
    },
    options,
  );
  return { summary, firstError };
}

/**
 * One request of `kind` to `target` whose answer must be 200 and match the route's response
 * schema: the rows that follow are timing the real service, not a refusal.
 */
async function checkAnswer(target: Target, kind: RequestKind): Promise<void> {
  const route = ROUTES.find((r) => r.id === kind.operation)!;
  const player = playerId(0);
  const request = kind.request(player, 0);
  const http = new HttpPool(target.url, { connections: 1 });
  try {
    const res = await http.request({ ...request, headers: target.headers(player, request) });
    const text = await res.body.text();
    const parsed = res.statusCode === 200 ? route.response.safeParse(JSON.parse(text)) : undefined;
    if (!parsed?.success)
      throw new Error(`${kind.name} to ${target.label}: ${res.statusCode} ${text.slice(0, 500)}`);
  } finally {
    await http.close();
  }
}
