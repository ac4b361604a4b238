import { describe, expect, it } from 'vitest';
import { EngageProblem, EngageUnreachable } from '../src/problem.ts';
import { type Attempt, withRetries } from '../src/retries.ts';

/** Answers as openapi-fetch gives them, one per attempt, and the waits asked for between them. */
function scripted(...answers: (Attempt<unknown> | Error)[]) {
  const waits: number[] = [];
  let sent = 0;
  const send = async () => {
    const next = answers[Math.min(sent++, answers.length - 1)]!;
    if (next instanceof Error) throw next;
    return next;
  };
  const sleep = async (ms: number) => void waits.push(ms);
  return { send, sleep, waits, sent: () => sent };
}

const ok = (data: unknown): Attempt<unknown> => ({ data, response: new Response('{}', { status: 200 }) });
const problem = (status: number, code: string, headers: Record<string, string> = {}): Attempt<unknown> => ({
  error: { status, code, detail: code, errors: [] },
  response: new Response('{}', { status, headers }),
});

describe('the contract’s retry rules', () => {
  it('never sends a 400 or another refusal again', async () => {
    for (const refusal of [problem(400, 'validation.amount'), problem(409, 'points.insufficient_balance')]) {
      const run = scripted(refusal, ok('never'));
      const err = await withRetries(run.send, {}, run.sleep).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngageProblem);
      expect(run.sent()).toBe(1);
    }
  });

  it('waits Retry-After seconds after a 429, and at once after a concurrent update', async () => {
    const run = scripted(
      problem(429, 'tenant.too_many_concurrent_requests', { 'retry-after': '2' }),
      problem(409, 'points.concurrent_update'),
      ok('done'),
    );
    expect(await withRetries(run.send, {}, run.sleep)).toBe('done');
    expect(run.waits[0]).toBeGreaterThanOrEqual(2_000);
    expect(run.waits[0]).toBeLessThanOrEqual(2_500);
    expect(run.waits[1]).toBe(0);
  });

  it('backs off exponentially after 500s and broken connections, up to the attempts allowed', async () => {
    const run = scripted(
      problem(500, 'server.unexpected'),
      new TypeError('fetch failed'),
      problem(503, 'x.y'),
    );
    const err = await withRetries(
      run.send,
      { attempts: 3, initialDelayMs: 100, maxDelayMs: 150 },
      run.sleep,
    ).catch((e: unknown) => e);
    expect(run.sent()).toBe(3);
    expect((err as EngageProblem).status).toBe(503);
    expect(run.waits).toHaveLength(2);
    expect(run.waits[0]).toBeGreaterThanOrEqual(100);
    expect(run.waits[1]).toBeGreaterThanOrEqual(150);
    expect(run.waits[1]).toBeLessThanOrEqual(150 * 1.25);
    const unreachable = scripted(new TypeError('fetch failed'));
    const lost = await withRetries(unreachable.send, { attempts: 2 }, unreachable.sleep).catch(
      (e: unknown) => e,
    );
    expect(lost).toBeInstanceOf(EngageUnreachable);
  });
});
