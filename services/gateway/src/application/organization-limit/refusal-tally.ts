import type { Logger } from '@engage/kit';
import type { Redis } from '@engage/redis';
import { dayOf } from '../../domain/quota.ts';
import { addRefusals, readRefusals } from '../../store/refusal-tally.ts';

/** How often a replica adds the refusals it counted to the shared counts. */
const FLUSH_INTERVAL_MS = 1_000;
const FAILURE_LOG_INTERVAL_MS = 10_000;

/**
 * Each organization's requests refused by the in-flight limit today, across replicas (the console's
 * overview shows them). Refusing never waits on it: a replica counts in memory and adds its counts to
 * Redis once a second; counts that cannot be added while Redis is unreachable are dropped, since
 * they only inform.
 */
export interface RefusalTally {
  refused(organizationId: string): void;
  refusedToday(organizationId: string): Promise<number>;
  /** Adds what is counted and stops the timer. */
  close(): Promise<void>;
}

export function createRefusalTally(options: { redis: Redis; keyPrefix: string; log: Logger }): RefusalTally {
  const { redis, keyPrefix, log } = options;
  let counted = new Map<string, number>();
  let lastFailure = 0;
  const flush = async () => {
    if (counted.size === 0) return;
    const counts = counted;
    counted = new Map();
    try {
      await addRefusals(redis, keyPrefix, dayOf(new Date()), counts);
    } catch (err) {
      if (Date.now() - lastFailure < FAILURE_LOG_INTERVAL_MS) return;
      lastFailure = Date.now();
      log.warn({ err: String(err) }, 'organization limit: refusals could not be counted');
    }
  };
  const timer = setInterval(() => void flush(), FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    refused(organizationId) {
      counted.set(organizationId, (counted.get(organizationId) ?? 0) + 1);
    },
    refusedToday: (organizationId) => readRefusals(redis, keyPrefix, organizationId, dayOf(new Date())),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
