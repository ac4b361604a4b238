import { Redis } from 'ioredis';
import { instrumentRedisCommands } from './metrics.ts';
import { watchForSilence } from './silence-watchdog.ts';

export type { Redis };

/**
 * An ioredis client. Commands issued while disconnected wait in the offline queue for a bounded
 * time instead of failing at once, and a connection that drops is re-established with backoff.
 * With `silenceMs`, a connection that stops answering is dropped and re-established too (see
 * silence-watchdog.ts).
 */
export function createRedis(
  url: string,
  options: { connectionName?: string; silenceMs?: number } = {},
): Redis {
  instrumentRedisCommands();
  const redis = new Redis(url, {
    connectionName: options.connectionName,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 100, 2_000),
    lazyConnect: false,
  });
  if (options.silenceMs) watchForSilence(redis, options.silenceMs);
  return redis;
}

export async function pingRedis(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  }
}

/**
 * Keys of one environment share a hash tag, so every key an environment's operation touches lands
 * on the same Redis Cluster slot and multi-key scripts stay legal.
 */
export function envKey(prefix: string, environmentId: string, ...parts: string[]): string {
  return `${prefix}{env:${environmentId}}:${parts.join(':')}`;
}
export * from './inflight-limit.ts';
