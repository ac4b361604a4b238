/**
 * When a failed delivery is tried again: after the n-th failed attempt it waits the schedule's n-th
 * delay, give or take a fifth (jitter, so many deliveries that failed together do not return
 * together); after the schedule's last delay and one more failure the delivery is exhausted.
 */
export interface RetrySchedule {
  /** Waits after the first, second… failed attempt, in milliseconds. */
  readonly delaysMs: readonly number[];
}

export const JITTER_FRACTION = 0.2;

/** Parses `5000,300000,…` (the WEBHOOK_RETRY_DELAYS_MS form); throws on anything else. */
export function parseRetryDelays(text: string): number[] {
  const delays = text.split(',').map((part) => part.trim());
  if (delays.length === 0 || delays.some((delay) => !/^\d+$/.test(delay))) {
    throw new Error('must be a comma-separated list of whole milliseconds, such as 5000,300000');
  }
  return delays.map(Number);
}

export type RetryDecision = { kind: 'retry'; at: Date } | { kind: 'exhausted' };

/** What follows the `attempts`-th failed attempt (1 for the first). `random` is in [0, 1). */
export function afterFailure(
  schedule: RetrySchedule,
  attempts: number,
  now: Date,
  random: () => number = Math.random,
): RetryDecision {
  const delay = schedule.delaysMs[attempts - 1];
  if (delay === undefined) return { kind: 'exhausted' };
  const jitter = delay * JITTER_FRACTION * (2 * random() - 1);
  return { kind: 'retry', at: new Date(now.getTime() + Math.max(0, Math.round(delay + jitter))) };
}

/** The attempts a delivery gets in all: the first and one per delay. */
export const attemptsAllowed = (schedule: RetrySchedule) => schedule.delaysMs.length + 1;
