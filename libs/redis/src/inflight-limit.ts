import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const SCRIPT = readFileSync(new URL('./inflight-limit.lua', import.meta.url), 'utf8');

export interface InflightLimitSettings {
  /** Requests of one scope executing at once, across every replica. */
  maxActive: number;
  /** Requests of one scope allowed to wait for a slot; beyond that a request is refused at once. */
  maxWaiting: number;
  /** An admitted request's lease; refreshed every third of it while the request runs. A replica that
   * dies stops refreshing, so its slots are free again at most this long after its last refresh. */
  leaseMs: number;
  /** Longest a request waits for a slot before it is refused. */
  maxWaitMs: number;
  /** How often a waiting request asks again (jittered); a release on the same replica wakes it at once. */
  pollMs?: number;
  /** A Redis call slower than this counts as Redis being unreachable. */
  commandTimeoutMs?: number;
}

export type Admission =
  | {
      outcome: 'admitted';
      release: () => void /** admitted requests of the scope, this one included */;
      inUse: number;
      /** requests of the scope waiting when this one was admitted, where the limiter knows it */
      waiting?: number;
    }
  | { outcome: 'refused'; reason: 'full' | 'wait_timeout' }
  | { outcome: 'aborted' };

/** Redis did not answer (down, disconnected or too slow): the caller decides what to do instead. */
export class InflightLimitUnavailable extends Error {
  override name = 'InflightLimitUnavailable';
}

export interface InflightLimiter {
  /** Takes a slot of `scope`, waiting for one when the waiting room has space. */
  acquire(scope: string, signal?: AbortSignal): Promise<Admission>;
}

/** The limit on Redis, which can also tell how many requests of a scope wait, on any replica. */
export interface SharedInflightLimiter extends InflightLimiter {
  /** Requests of `scope` waiting now, on every replica (one read; throws InflightLimitUnavailable). */
  waiting(scope: string): Promise<number>;
}

type ScriptResult = [status: number, admitted: number, waiting: number];
type Op = 'acquire' | 'refresh' | 'release' | 'peek';

interface ScriptedRedis extends Redis {
  engageInflightLimit(
    active: string,
    waiting: string,
    op: Op,
    token: string,
    maxActive: number,
    maxWaiting: number,
    leaseMs: number,
    waitLeaseMs: number,
  ): Promise<ScriptResult>;
}

/**
 * The limit as one Lua script on Redis (sorted sets of leases scored on Redis's clock; see
 * inflight-limit.lua). Keys of a scope share a hash tag, so the script is legal on Redis Cluster.
 */
export function createInflightLimiter(options: {
  redis: Redis;
  keyPrefix: string;
  settings: InflightLimitSettings;
  onError?: (err: unknown) => void;
}): SharedInflightLimiter {
  const { keyPrefix, settings } = options;
  const pollMs = settings.pollMs ?? 50;
  const commandTimeoutMs = settings.commandTimeoutMs ?? 1_000;
  // A waiting request asks at least every pollMs; its place is kept for a few missed polls only.
  const waitLeaseMs = Math.max(pollMs * 10, 2_000);
  const redis = options.redis as ScriptedRedis;
  if (typeof redis.engageInflightLimit !== 'function') {
    redis.defineCommand('engageInflightLimit', { numberOfKeys: 2, lua: SCRIPT });
  }
  const wakers = new Map<string, Set<() => void>>();

  const run = async (scope: string, op: Op, token: string): Promise<ScriptResult> => {
    if (redis.status !== 'ready') throw new InflightLimitUnavailable(`redis is ${redis.status}`);
    const keys = inflightKeys(keyPrefix, scope);
    const call = redis.engageInflightLimit(
      keys.active,
      keys.waiting,
      op,
      token,
      settings.maxActive,
      settings.maxWaiting,
      settings.leaseMs,
      waitLeaseMs,
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new InflightLimitUnavailable('redis timed out')), commandTimeoutMs);
    });
    try {
      return await Promise.race([call, timeout]);
    } catch (err) {
      call.catch(() => undefined);
      throw err instanceof InflightLimitUnavailable ? err : new InflightLimitUnavailable(String(err));
    } finally {
      clearTimeout(timer);
    }
  };

  const forget = (scope: string, token: string) => {
    run(scope, 'release', token).catch((err) => options.onError?.(err));
  };

  const admitted = (scope: string, token: string, inUse: number, waiting: number): Admission => {
    const refresh = setInterval(
      () => run(scope, 'refresh', token).catch((err) => options.onError?.(err)),
      Math.max(Math.floor(settings.leaseMs / 3), 10),
    );
    refresh.unref();
    let released = false;
    return {
      outcome: 'admitted',
      inUse,
      waiting,
      release: () => {
        if (released) return;
        released = true;
        clearInterval(refresh);
        run(scope, 'release', token)
          .catch((err) => options.onError?.(err))
          .finally(() => {
            for (const wake of wakers.get(scope) ?? []) wake();
          });
      },
    };
  };

  const nextTurn = (scope: string, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve) => {
      const set = wakers.get(scope) ?? new Set();
      wakers.set(scope, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) wakers.delete(scope);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, pollMs / 2 + Math.random() * pollMs);
      set.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });

  return {
    async waiting(scope) {
      const [, , waiting] = await run(scope, 'peek', '');
      return waiting;
    },
    async acquire(scope, signal) {
      if (signal?.aborted) return { outcome: 'aborted' };
      const token = randomUUID();
      const deadline = Date.now() + settings.maxWaitMs;
      for (;;) {
        let result: ScriptResult;
        try {
          result = await run(scope, 'acquire', token);
        } catch (err) {
          forget(scope, token);
          throw err;
        }
        const [status, inUse, waiting] = result;
        if (status === 1) {
          if (signal?.aborted) {
            forget(scope, token);
            return { outcome: 'aborted' };
          }
          return admitted(scope, token, inUse, waiting);
        }
        if (status === -1) return { outcome: 'refused', reason: 'full' };
        if (signal?.aborted) {
          forget(scope, token);
          return { outcome: 'aborted' };
        }
        if (Date.now() >= deadline) {
          forget(scope, token);
          return { outcome: 'refused', reason: 'wait_timeout' };
        }
        await nextTurn(scope, signal);
      }
    },
  };
}

/** The scope's two sorted sets, under one hash tag. */
export function inflightKeys(keyPrefix: string, scope: string) {
  return {
    active: `${keyPrefix}{inflight:${scope}}:active`,
    waiting: `${keyPrefix}{inflight:${scope}}:waiting`,
  };
}
