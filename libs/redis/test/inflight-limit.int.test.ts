import { randomUUID } from 'node:crypto';
import { eventually, stackConfig } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedis, type Redis } from '../src/index.ts';
import {
  type Admission,
  createInflightLimiter,
  type InflightLimitSettings,
  inflightKeys,
} from '../src/inflight-limit.ts';

const settings: InflightLimitSettings = { maxActive: 16, maxWaiting: 8, leaseMs: 10_000, maxWaitMs: 60_000 };
const clients: Redis[] = [];
const prefix = `t${randomUUID().slice(0, 8)}.`;

async function replica(overrides: Partial<InflightLimitSettings> = {}) {
  const redis = createRedis(stackConfig().redisUrl);
  clients.push(redis);
  await redis.ping();
  return {
    redis,
    limiter: createInflightLimiter({ redis, keyPrefix: prefix, settings: { ...settings, ...overrides } }),
  };
}

function admitted(admission: Admission) {
  if (admission.outcome !== 'admitted') throw new Error(`expected admission, got ${admission.outcome}`);
  return admission;
}

const counts = async (redis: Redis, scope: string) => {
  const keys = inflightKeys(prefix, scope);
  return { active: await redis.zcard(keys.active), waiting: await redis.zcard(keys.waiting) };
};

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
});

describe('the in-flight limit on Redis', () => {
  it('admits 16 across two replicas, lets 8 wait, refuses the 25th at once, and passes slots on', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const org = randomUUID();
    const running = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).limiter.acquire(org).then(admitted)),
    );
    expect(Math.max(...running.map((r) => r.inUse))).toBe(16);
    const waiting = Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).limiter.acquire(org));
    await eventually('8 requests waiting', async () =>
      (await counts(a.redis, org)).waiting === 8 ? true : undefined,
    );
    expect(await a.limiter.acquire(org)).toEqual({ outcome: 'refused', reason: 'full' });
    expect(await b.limiter.acquire(org)).toEqual({ outcome: 'refused', reason: 'full' });

    // Another organization is not affected.
    admitted(await a.limiter.acquire(randomUUID())).release();

    for (const r of running.slice(0, 8)) r.release();
    const next = await Promise.all(waiting.map((w) => w.then(admitted)));
    expect(await counts(a.redis, org)).toEqual({ active: 16, waiting: 0 });
    for (const r of [...running.slice(8), ...next]) r.release();
    await eventually('every slot released', async () =>
      (await counts(a.redis, org)).active === 0 ? true : undefined,
    );
  });

  it('asks Redis nothing for a request whose client is already gone', async () => {
    // Nothing listens on port 1: any call would fail as Redis unreachable.
    const redis = createRedis('redis://127.0.0.1:1');
    redis.on('error', () => undefined);
    try {
      const limiter = createInflightLimiter({ redis, keyPrefix: prefix, settings });
      expect(await limiter.acquire(randomUUID(), AbortSignal.abort())).toEqual({ outcome: 'aborted' });
    } finally {
      redis.disconnect();
    }
  });

  it('frees the slots of a replica that died once their leases run out, and keeps leases of live ones', async () => {
    const [dying, living] = await Promise.all([replica({ leaseMs: 3_000 }), replica({ leaseMs: 3_000 })]);
    const org = randomUUID();
    await Promise.all(Array.from({ length: 8 }, () => dying.limiter.acquire(org).then(admitted)));
    const kept = await Promise.all(
      Array.from({ length: 8 }, () => living.limiter.acquire(org).then(admitted)),
    );
    dying.redis.disconnect();
    // The dead replica's 8 slots come back; the living replica's refreshed leases stay.
    const taken = await eventually(
      'the dead replica’s slots to come back',
      async () => {
        const admission = await living.limiter.acquire(org);
        if (admission.outcome === 'admitted') return admission;
        return undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(taken.inUse).toBeLessThanOrEqual(16);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect((await counts(living.redis, org)).active).toBeGreaterThanOrEqual(9);
    for (const r of [...kept, taken]) r.release();
  });

  it('takes a request that gives up waiting out of the waiting room', async () => {
    const { redis, limiter } = await replica({ maxActive: 1, maxWaiting: 1 });
    const org = randomUUID();
    const holder = admitted(await limiter.acquire(org));
    const gone = new AbortController();
    const waiting = limiter.acquire(org, gone.signal);
    await eventually('one waiting', async () =>
      (await counts(redis, org)).waiting === 1 ? true : undefined,
    );
    expect(await limiter.acquire(org)).toEqual({ outcome: 'refused', reason: 'full' });
    gone.abort();
    expect(await waiting).toEqual({ outcome: 'aborted' });
    await eventually('the waiting room empty', async () =>
      (await counts(redis, org)).waiting === 0 ? true : undefined,
    );
    holder.release();
  });

  it('refuses a request that waited longer than allowed', async () => {
    const { limiter } = await replica({ maxActive: 1, maxWaiting: 1, maxWaitMs: 200 });
    const org = randomUUID();
    const holder = admitted(await limiter.acquire(org));
    expect(await limiter.acquire(org)).toEqual({ outcome: 'refused', reason: 'wait_timeout' });
    holder.release();
  });

  it('reports Redis being unreachable instead of deciding', async () => {
    const redis = createRedis('redis://127.0.0.1:1');
    clients.push(redis);
    const limiter = createInflightLimiter({ redis, keyPrefix: prefix, settings });
    await expect(limiter.acquire(randomUUID())).rejects.toThrow(/redis/);
  });

  it('tells how many requests wait on any replica, writing nothing and leaving out lapsed waits', async () => {
    const [a, b] = await Promise.all([replica({ maxActive: 1 }), replica({ maxActive: 1 })]);
    const org = randomUUID();
    const running = admitted(await a.limiter.acquire(org));
    expect(await a.limiter.waiting(org)).toBe(0);
    const gone = new AbortController();
    const queued = b.limiter.acquire(org, gone.signal);
    await eventually('a request waiting on the other replica', async () =>
      (await a.limiter.waiting(org)) === 1 ? true : undefined,
    );
    // A wait whose lease ran out (its replica died) is not counted, though still in the set.
    const keys = inflightKeys(prefix, org);
    await a.redis.zadd(keys.waiting, 1, 'lapsed');
    expect(await a.limiter.waiting(org)).toBe(1);
    expect(await a.redis.zscore(keys.waiting, 'lapsed')).toBe('1');
    gone.abort();
    expect(await queued).toEqual({ outcome: 'aborted' });
    running.release();
    await eventually('nobody waiting', async () => ((await a.limiter.waiting(org)) === 0 ? true : undefined));
  });
});
