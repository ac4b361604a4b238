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

/**
 * Slots granted together (see InflightLimiter.acquireBlock): each a member of the scope's set in
 * Redis, whose lease the holder extends (renew) and which it gives back itself.
 */
export type BlockAdmission =
  | {
      outcome: 'admitted';
      slots: string[];
      inUse: number;
      waiting: number;
      /** When the call that granted them was sent (local clock): their leases run at least leaseMs from then. */
      sentAt: number;
    }
  | { outcome: 'refused'; reason: 'full' | 'wait_timeout' }
  | { outcome: 'aborted' };

export interface Renewal {
  /** How many of the slots to keep still held a lease (now extended). */
  held: number;
  inUse: number;
  /** Requests of the scope waiting for a slot, on every replica. */
  waiting: number;
}

export interface InflightLimiter {
  /** Takes a slot of `scope`, waiting for one when the waiting room has space. */
  acquire(scope: string, signal?: AbortSignal): Promise<Admission>;
  /**
   * Takes a slot as `acquire` does, and with it up to `spare` more that are free and that no
   * waiting request needs, in one call. Their leases are not refreshed: the caller renews them.
   */
  acquireBlock(scope: string, spare: number, signal?: AbortSignal): Promise<BlockAdmission>;
  /** Extends the leases of `keep` and gives back `release`, in one call. */
  renew(scope: string, keep: readonly string[], release: readonly string[]): Promise<Renewal>;
}

type ScriptResult = [status: number, admitted: number, waiting: number];
type Op = 'acquire' | 'refresh' | 'release' | 'renew';

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
    ...rest: (string | number)[]
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
}): InflightLimiter {
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

  const run = async (
    scope: string,
    op: Op,
    token: string,
    ...rest: (string | number)[]
  ): Promise<ScriptResult> => {
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
      ...rest,
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

  const giveBack = (scope: string, slots: readonly string[]) => {
    run(scope, 'renew', '', 0, ...slots).catch((err) => options.onError?.(err));
  };

  const acquireBlock = async (
    scope: string,
    spare: number,
    signal: AbortSignal | undefined,
  ): Promise<BlockAdmission> => {
    if (signal?.aborted) return { outcome: 'aborted' };
    const token = randomUUID();
    const deadline = Date.now() + settings.maxWaitMs;
    for (;;) {
      let result: ScriptResult;
      const sentAt = Date.now();
      try {
        result = await run(scope, 'acquire', token, spare);
      } catch (err) {
        forget(scope, token);
        throw err;
      }
      const [status, inUse, waiting] = result;
      if (status >= 1) {
        const slots = [token, ...Array.from({ length: status - 1 }, (_, i) => `${token}/${i + 2}`)];
        if (signal?.aborted) {
          giveBack(scope, slots);
          return { outcome: 'aborted' };
        }
        return { outcome: 'admitted', slots, inUse, waiting, sentAt };
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
  };

  return {
    async acquire(scope, signal) {
      const block = await acquireBlock(scope, 0, signal);
      if (block.outcome !== 'admitted') return block;
      return admitted(scope, block.slots[0]!, block.inUse, block.waiting);
    },
    acquireBlock,
    async renew(scope, keep, release) {
      const [held, inUse, waiting] = await run(scope, 'renew', '', keep.length, ...keep, ...release);
      if (release.length > 0) for (const wake of wakers.get(scope) ?? []) wake();
      return { held, inUse, waiting };
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
