import { EngageProblem, EngageUnreachable, type ProblemDocument } from './problem.ts';

export interface RetryOptions {
  /** Attempts of one call at most, the first included (default 5). */
  attempts?: number;
  /** The first backoff after a 500 or a broken connection, doubled each time (default 200 ms). */
  initialDelayMs?: number;
  /** Longest backoff (default 5 s). */
  maxDelayMs?: number;
}

/** What one attempt answered: openapi-fetch's result. */
export interface Attempt<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Sends a call until it is answered, following the contract's retry rules: 429 → wait for
 * `Retry-After`, then send again; 409 with a `*.concurrent_update` code → send again at once (nothing
 * was written); 500/503 or a broken connection → back off and send again (every write carries an
 * idempotency key, so a repeat is a replay); anything else, a 400 above all, is thrown at once.
 */
export async function withRetries<T>(
  send: () => Promise<Attempt<T>>,
  options: RetryOptions = {},
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  const attempts = options.attempts ?? 5;
  const initialDelayMs = options.initialDelayMs ?? 200;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  for (let attempt = 1; ; attempt++) {
    const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
    let failure: EngageProblem | EngageUnreachable;
    let waitMs: number;
    try {
      const answer = await send();
      if (answer.response.ok) return answer.data as T;
      const problem = problemOf(answer);
      failure = problem;
      waitMs = delayAfter(problem, backoff);
    } catch (err) {
      if (err instanceof EngageProblem) throw err;
      failure = new EngageUnreachable(err instanceof Error ? err.message : String(err), { cause: err });
      waitMs = backoff;
    }
    if (waitMs < 0 || attempt >= attempts) throw failure;
    await sleep(waitMs * jitter());
  }
}

/** How long to wait before sending again after `failure`, or -1: never send it again. */
function delayAfter(failure: EngageProblem, backoff: number): number {
  if (failure.status === 429) return (failure.retryAfterSeconds ?? 1) * 1_000;
  if (failure.status === 409 && failure.code.endsWith('.concurrent_update')) return 0;
  if (failure.status === 500 || failure.status === 502 || failure.status === 503) return backoff;
  return -1;
}

/** Between 1 and 1.25: replicas retrying together do not stay in step (never below what was asked). */
const jitter = () => 1 + Math.random() / 4;

function problemOf(answer: Attempt<unknown>): EngageProblem {
  const { response, error } = answer;
  const problem = typeof error === 'object' && error !== null ? (error as Partial<ProblemDocument>) : {};
  const retryAfter = Number(response.headers.get('retry-after'));
  return new EngageProblem(
    response.status,
    problem,
    Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has('retry-after')
      ? retryAfter
      : undefined,
  );
}
