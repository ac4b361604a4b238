import type { Redis } from 'ioredis';

/**
 * ioredis notices a connection that closes, not one that falls silent: a server that accepts and
 * never answers (a hung process, a partition that keeps the TCP session up) leaves the client
 * waiting for its ready check or for replies indefinitely, so it would never reconnect. The watchdog
 * drops such a connection, and ioredis reconnects with its usual backoff:
 * - a connection not ready within `silenceMs` of its TCP connect;
 * - a ready connection whose PING is not answered within `silenceMs` (checked every `silenceMs`).
 * Only for clients whose own commands are small: a long pipeline ahead of the PING would count
 * as silence.
 */
export function watchForSilence(redis: Redis, silenceMs: number): void {
  let notReady: NodeJS.Timeout | undefined;
  redis.on('connect', () => {
    clearTimeout(notReady);
    notReady = setTimeout(() => {
      if (redis.status !== 'ready') redis.disconnect(true);
    }, silenceMs).unref();
  });
  redis.on('ready', () => clearTimeout(notReady));

  let probing = false;
  const probe = setInterval(() => {
    if (redis.status !== 'ready' || probing) return;
    probing = true;
    const silent = setTimeout(() => redis.disconnect(true), silenceMs).unref();
    redis
      .ping()
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(silent);
        probing = false;
      });
  }, silenceMs).unref();
  redis.once('end', () => {
    clearInterval(probe);
    clearTimeout(notReady);
  });
}
