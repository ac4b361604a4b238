import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { expireKeys } from '../store/idempotency.ts';

const EVERY_MS = 10 * 60 * 1000;

/**
 * Forgets event idempotency keys older than the topic keeps events, in bounded deletes every ten
 * minutes. Safe on every replica at once (each delete takes whatever rows are old).
 */
export function startKeyExpiry(options: { pool: Pool; log: Logger; retentionMs: number }): { stop(): void } {
  const sweep = async () => {
    try {
      while ((await expireKeys(options.pool, options.retentionMs)) > 0) {
        // bounded batches until nothing old is left
      }
    } catch (err) {
      options.log.warn({ err }, 'could not expire idempotency keys');
    }
  };
  const timer = setInterval(sweep, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
