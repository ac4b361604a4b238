import { describe, expect, it } from 'vitest';
import { retry } from '../src/retry.ts';

/** Work that fails with `failures` in turn, then answers 'done'; it records each attempt's number. */
function failing(...failures: unknown[]) {
  const attempts: number[] = [];
  const work = async (attempt: number) => {
    attempts.push(attempt);
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
    return 'done';
  };
  return { attempts, work };
}

describe('retry', () => {
  it('tries again after each failure, pausing as the policy says', async () => {
    const { attempts, work } = failing(new Error('one'), new Error('two'));
    const pauses: number[] = [];
    const retried: string[] = [];
    const result = await retry(work, {
      attempts: 3,
      delayMs: (failed) => {
        pauses.push(failed);
        return 1;
      },
      onRetry: (err, failed) => retried.push(`${failed}:${(err as Error).message}`),
    });
    expect(result).toBe('done');
    expect(attempts).toEqual([1, 2, 3]);
    expect(pauses).toEqual([1, 2]);
    expect(retried).toEqual(['1:one', '2:two']);
  });

  it('throws the last failure once the attempts are spent', async () => {
    const last = new Error('three');
    const { attempts, work } = failing(new Error('one'), new Error('two'), last);
    await expect(retry(work, { attempts: 3, delayMs: () => 0 })).rejects.toBe(last);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('throws a failure that is not retryable at once', async () => {
    const fatal = Object.assign(new Error('fatal'), { code: 'fatal' });
    const { attempts, work } = failing(new Error('transient'), fatal);
    const retryable = (err: unknown) => (err as { code?: string }).code !== 'fatal';
    await expect(retry(work, { attempts: 5, delayMs: () => 0, retryable })).rejects.toBe(fatal);
    expect(attempts).toEqual([1, 2]);
  });

  it('never retries a TypeError', async () => {
    const bug = new TypeError('x is undefined');
    const { attempts, work } = failing(bug);
    await expect(retry(work, { attempts: 5, delayMs: () => 0 })).rejects.toBe(bug);
    expect(attempts).toEqual([1]);
  });
});
