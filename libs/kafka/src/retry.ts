/**
 * Runs `work`, and again after a pause that grows by `stepMs` each time, while it fails with an
 * error `retryable` accepts, `attempts` times in all; the last failure is thrown.
 */
export async function withRetries<T>(
  work: () => Promise<T>,
  options: { attempts: number; stepMs: number; retryable?: (err: unknown) => boolean },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= options.attempts || options.retryable?.(err) === false) throw err;
      await new Promise((resolve) => setTimeout(resolve, options.stepMs * attempt));
    }
  }
}
