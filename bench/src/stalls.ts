import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Where a run's slow requests could have waited: the bench client's own event loop (a response
 * read late is timed late), and the service's (its /metrics: request durations as the service saw
 * them, its event-loop delay and garbage collection over the same window).
 */
export interface StallReport {
  /** The bench client's event-loop delay, ms. */
  client: { p99Ms: number; maxMs: number };
  /** Of the service's requests on the watched routes, the share that took longer than `slowMs` inside it. */
  serviceSlowShare: number;
  /** The service's event-loop delay over the window (prom-client samples it every 10 ms), ms. */
  serviceLoop: { p99Ms: number; maxMs: number };
  /** The service's time in garbage collection per second of the window, ms, by kind. */
  serviceGcMsPerSecond: Record<string, number>;
}

type Samples = Map<string, number>;

/**
 * Runs `run` while watching the service's requests on `routes` (as the service registers them), and
 * gives its result with the report for the time it ran. `slowMs` must be one of the service's
 * histogram bounds.
 */
export async function watchStalls<T>(
  /** The service's metrics URL (its METRICS_PORT, not its API port). */
  metricsUrl: string,
  routes: readonly string[],
  slowMs: number,
  run: () => Promise<T>,
): Promise<{ result: T; stalls: StallReport }> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  // The scrape also resets prom-client's event-loop histogram, so the next one covers the run.
  const before = await scrape(metricsUrl);
  const started = performance.now();
  loop.enable();
  const result = await run();
  loop.disable();
  const seconds = (performance.now() - started) / 1000;
  const after = await scrape(metricsUrl);
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  const routeLabels = routes.map((route) => `route="${route}"`);
  const sumOver = (suffix: string, le?: string) =>
    [...after.keys()]
      .filter((k) => k.startsWith(`http_server_request_duration_seconds_${suffix}{`))
      .filter((k) => routeLabels.some((label) => k.includes(label)))
      .filter((k) => le === undefined || k.includes(`le="${le}"`))
      .reduce((sum, k) => sum + delta(k), 0);
  const count = sumOver('count');
  const fast = sumOver('bucket', String(slowMs / 1000));
  const gc: Record<string, number> = {};
  for (const key of after.keys()) {
    const kind = /^nodejs_gc_duration_seconds_sum\{kind="([^"]+)"\}/.exec(key)?.[1];
    if (kind) gc[kind] = (delta(key) * 1000) / seconds;
  }
  const stalls = {
    client: { p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 },
    serviceSlowShare: count > 0 ? (count - fast) / count : 0,
    serviceLoop: {
      p99Ms: (after.get('nodejs_eventloop_lag_p99_seconds') ?? 0) * 1000,
      maxMs: (after.get('nodejs_eventloop_lag_max_seconds') ?? 0) * 1000,
    },
    serviceGcMsPerSecond: gc,
  };
  return { result, stalls };
}

/** One line for a report. */
export function describeStalls(s: StallReport, slowMs: number): string {
  const gc = Object.entries(s.serviceGcMsPerSecond)
    .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
    .join(', ');
  return (
    `bench client loop delay p99 ${s.client.p99Ms.toFixed(1)} ms (max ${s.client.maxMs.toFixed(1)}); ` +
    `service: ${(s.serviceSlowShare * 100).toFixed(2)} % of requests over ${slowMs} ms inside it, ` +
    `loop delay p99 ${s.serviceLoop.p99Ms.toFixed(1)} ms (max ${s.serviceLoop.maxMs.toFixed(1)}), ` +
    `GC ms per second: ${gc}`
  );
}

/** A Prometheus text page as series (name and labels as written) → value. */
async function scrape(url: string): Promise<Samples> {
  const text = await (await fetch(url)).text();
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.length === 0) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}
