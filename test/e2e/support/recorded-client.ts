/**
 * A client of the public API that records every operation it runs (invoked, then ok, fail or
 * unknown) and retries an unknown outcome with the same request, idempotency keys included, until
 * the answer is definitive: what the oracle of a fault test is checked against.
 */

/** ok: 2xx; fail: a definitive refusal (4xx); unknown: no answer, a 5xx, or "not now" (429, a concurrent update). */
export type Outcome = 'ok' | 'fail' | 'unknown';

export interface Answer {
  outcome: Outcome;
  status: number | null;
  body: unknown;
  /** What went wrong without an answer (connection refused, timeout). */
  error?: string;
}

export type OperationKind = 'events' | 'adjustment' | 'purchase' | 'missions';

export interface Operation {
  kind: OperationKind;
  playerId: string;
  method: 'POST' | 'GET';
  path: string;
  body?: unknown;
}

export interface OperationRecord extends Operation {
  /** Every attempt's answer, in order; the last is the definitive one unless the operation gave up. */
  attempts: Answer[];
  final: Answer;
}

const RETRY_AFTER_CODES = /concurrent_update$|too_many_concurrent_requests$/;

export function classify(status: number, body: unknown): Outcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status >= 500 || status === 429) return 'unknown';
  const code = (body as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && RETRY_AFTER_CODES.test(code)) return 'unknown';
  return 'fail';
}

export class RecordedClient {
  readonly records: OperationRecord[] = [];
  /** Attempts answered `unknown` so far, of operations still running too. */
  unknownAnswers = 0;
  readonly #url: () => string;
  readonly #apiKey: string;
  readonly #giveUpAfterMs: number;

  /** `url` is read on every attempt, so a restarted gateway on another port is followed. */
  constructor(url: () => string, apiKey: string, options: { giveUpAfterMs?: number } = {}) {
    this.#url = url;
    this.#apiKey = apiKey;
    this.#giveUpAfterMs = options.giveUpAfterMs ?? 90_000;
  }

  /** Resolves once `count` more operations than now have their definitive answer. */
  async answeredMore(count: number): Promise<void> {
    const target = this.records.length + count;
    while (this.records.length < target) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** One attempt, never throwing: a missing answer is an `unknown` outcome. */
  async attempt(op: Operation): Promise<Answer> {
    try {
      const res = await fetch(`${this.#url()}${op.path}`, {
        method: op.method,
        headers: { authorization: `Bearer ${this.#apiKey}`, 'content-type': 'application/json' },
        body: op.body === undefined ? undefined : JSON.stringify(op.body),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      const body = text === '' ? null : (JSON.parse(text) as unknown);
      return { outcome: classify(res.status, body), status: res.status, body };
    } catch (err) {
      return { outcome: 'unknown', status: null, body: null, error: String(err) };
    }
  }

  /** Runs `op` until its outcome is ok or fail (or gives up, leaving it unknown) and records it. */
  async run(op: Operation): Promise<OperationRecord> {
    const attempts: Answer[] = [];
    const deadline = Date.now() + this.#giveUpAfterMs;
    for (;;) {
      const answer = await this.attempt(op);
      attempts.push(answer);
      if (answer.outcome === 'unknown') this.unknownAnswers++;
      if (answer.outcome !== 'unknown' || Date.now() > deadline) {
        const record = { ...op, attempts, final: answer };
        this.records.push(record);
        return record;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 50 * attempts.length)));
    }
  }

  /** The records' outcomes by operation kind, for the test's report. */
  tally(): Record<string, Record<Outcome | 'retried', number>> {
    const tally: Record<string, Record<Outcome | 'retried', number>> = {};
    for (const r of this.records) {
      tally[r.kind] ??= { ok: 0, fail: 0, unknown: 0, retried: 0 };
      const row = tally[r.kind]!;
      row[r.final.outcome]++;
      if (r.attempts.length > 1) row.retried++;
    }
    return tally;
  }
}
