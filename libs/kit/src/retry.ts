import pRetry from 'p-retry';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** The pause after the `failedAttempt`-th failure (1 after the first), before the next try. */
  delayMs: (failedAttempt: number) => number;
  /** Whether a failure is worth another try; every failure is when absent. */
  retryable?: (err: unknown) => boolean;
  /** Called before each pause, with the failure and the number of the attempt that failed. */
  onRetry?: (err: unknown, failedAttempt: number) => void;
}

/**
 * Runs `work` (given the attempt's number, from 1) until it succeeds, a failure is not retryable or
 * `attempts` tries failed; the last failure is thrown as it was. As p-retry does, a TypeError (a
 * programming error, which another try would repeat) is never retried, and a thrown value that is
 * not an Error ends the tries with a TypeError.
 */
export function retry<T>(work: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  return pRetry(work, {
    retries: policy.attempts - 1,
    minTimeout: 0,
    shouldRetry: async ({ error, attemptNumber }) => {
      if (policy.retryable && !policy.retryable(error)) return false;
      policy.onRetry?.(error, attemptNumber);
      const delay = policy.delayMs(attemptNumber);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      return true;
    },
  });
}
