/** Latency samples of one run, in milliseconds, and what they add up to. */
export class Recorder {
  private readonly samples: number[] = [];
  private started = 0;
  private ended = 0;
  errors = 0;
  /** Units of work per operation (events per batch, 1 for an adjustment). */
  readonly unitsPerOp: number;

  constructor(unitsPerOp = 1) {
    this.unitsPerOp = unitsPerOp;
  }

  start() {
    this.started = performance.now();
  }

  stop() {
    this.ended = performance.now();
  }

  record(ms: number) {
    this.samples.push(ms);
  }

  summary(): RunSummary {
    const sorted = [...this.samples].sort((a, b) => a - b);
    const seconds = (this.ended - this.started) / 1000;
    const pct = (p: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    return {
      operations: sorted.length,
      errors: this.errors,
      seconds: round(seconds),
      opsPerSecond: round(sorted.length / seconds),
      unitsPerSecond: round((sorted.length * this.unitsPerOp) / seconds),
      p50Ms: round(pct(50)),
      p90Ms: round(pct(90)),
      p99Ms: round(pct(99)),
      maxMs: round(sorted.at(-1) ?? 0),
    };
  }
}

export interface RunSummary {
  operations: number;
  errors: number;
  seconds: number;
  opsPerSecond: number;
  unitsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** A row with a rate and no latencies: `units` applied in `seconds` (a consumer draining a backlog). */
export function throughputSummary(units: number, seconds: number): RunSummary {
  const perSecond = round(units / seconds);
  return {
    operations: units,
    errors: 0,
    seconds: round(seconds),
    opsPerSecond: perSecond,
    unitsPerSecond: perSecond,
    p50Ms: 0,
    p90Ms: 0,
    p99Ms: 0,
    maxMs: 0,
  };
}

/**
 * Runs `op` from `concurrency` workers, each starting its next operation when its last one ends,
 * until `seconds` pass, and records the latency of each: throughput at saturation. Latency at a given
 * rate is `driveOnSchedule`'s.
 */
export async function drive(
  recorder: Recorder,
  op: (worker: number, i: number) => Promise<void>,
  options: { concurrency: number; seconds: number },
): Promise<RunSummary> {
  const deadline = performance.now() + options.seconds * 1000;
  let counter = 0;
  recorder.start();
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await op(worker, counter++);
          recorder.record(performance.now() - t0);
        } catch {
          recorder.errors++;
        }
      }
    }),
  );
  recorder.stop();
  return recorder.summary();
}

/**
 * Starts `op` on a fixed-rate open schedule: operation i is due at start + i / ratePerSecond whether
 * or not the earlier ones have finished, and its latency is counted from when it was due, not from
 * when it actually went out. Timing each operation from its own late start would hide the time
 * requests waited while the system under test fell behind (coordinated omission). How many
 * operations are under way at once is left to `op`'s client (an HTTP pool's connections): a request
 * waiting there for a connection is late, and that counts.
 */
export async function driveOnSchedule(
  recorder: Recorder,
  op: (i: number) => Promise<void>,
  options: { ratePerSecond: number; seconds: number },
): Promise<RunSummary> {
  const interval = 1000 / options.ratePerSecond;
  const count = Math.max(1, Math.floor(options.seconds * options.ratePerSecond));
  const under: Promise<void>[] = [];
  recorder.start();
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    under.push(
      op(i).then(
        () => recorder.record(performance.now() - due),
        () => {
          recorder.errors++;
        },
      ),
    );
  }
  await Promise.all(under);
  recorder.stop();
  return recorder.summary();
}

/**
 * `op` at `ratePerSecond` on an open schedule (`driveOnSchedule`), or at saturation (`drive`) when
 * no rate is given.
 */
export function driveAtRate(
  recorder: Recorder,
  op: (worker: number, i: number) => Promise<void>,
  options: { concurrency: number; seconds: number; ratePerSecond?: number | undefined },
): Promise<RunSummary> {
  const { ratePerSecond, seconds, concurrency } = options;
  return ratePerSecond
    ? driveOnSchedule(recorder, (i) => op(0, i), { ratePerSecond, seconds })
    : drive(recorder, op, { concurrency, seconds });
}
