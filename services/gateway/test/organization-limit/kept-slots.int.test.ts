import { createLogger } from '@engage/kit';
import {
  type Admission,
  createInflightLimiter,
  createRedis,
  inflightKeys,
  type Redis,
  type SharedInflightLimiter,
} from '@engage/redis';
import { eventually, stackConfig } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { keepSlots } from '../../src/application/organization-limit/kept-slots.ts';
import {
  createOrganizationLimit,
  keptSlotSettings,
  ORGANIZATION_IN_FLIGHT,
  ORGANIZATION_WAITING,
  type OrganizationLimit,
} from '../../src/application/organization-limit/organization-limit.ts';

const KEEP_MS = 100;
const env = {
  ORGANIZATION_LIMIT_LEASE_MS: 1_000,
  ORGANIZATION_LIMIT_MAX_WAIT_MS: 10_000,
  ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT: 2,
  ORGANIZATION_LIMIT_KEEP_SLOT_MS: KEEP_MS,
};
const log = createLogger('test', 'silent');
const observer = createRedis(stackConfig().redisUrl);
const connections: Redis[] = [];
const prefix = `kept${Date.now()}.`;

afterAll(async () => {
  await Promise.all(connections.filter((c) => c.status === 'ready').map((c) => c.quit()));
  await observer.quit();
});

/** One gateway replica's limit, on a Redis connection of its own. */
async function replica(): Promise<{ limit: OrganizationLimit; redis: Redis }> {
  const redis = createRedis(stackConfig().redisUrl);
  connections.push(redis);
  // Connected, so that every admission below is decided on Redis, not by the per-replica share.
  await redis.ping();
  return { limit: createOrganizationLimit({ redis, keyPrefix: prefix, env, log }), redis };
}

/** A replica's slot keeper on the Redis limiter, counting the slots it takes from and gives back to Redis. */
async function countingReplica() {
  const redis = createRedis(stackConfig().redisUrl);
  connections.push(redis);
  await redis.ping();
  const limiter = createInflightLimiter({
    redis,
    keyPrefix: prefix,
    settings: {
      maxActive: ORGANIZATION_IN_FLIGHT,
      maxWaiting: ORGANIZATION_WAITING,
      leaseMs: env.ORGANIZATION_LIMIT_LEASE_MS,
      maxWaitMs: env.ORGANIZATION_LIMIT_MAX_WAIT_MS,
    },
  });
  const calls = { acquire: 0, release: 0 };
  const counted: SharedInflightLimiter = {
    waiting: (scope) => limiter.waiting(scope),
    async acquire(scope, signal) {
      calls.acquire += 1;
      const admission: Admission = await limiter.acquire(scope, signal);
      if (admission.outcome !== 'admitted') return admission;
      return {
        ...admission,
        release: () => {
          calls.release += 1;
          admission.release();
        },
      };
    },
  };
  return { limit: keepSlots(counted, keptSlotSettings(env)), calls };
}

const admitted = <A extends Admission>(admission: A): Extract<A, { outcome: 'admitted' }> => {
  if (admission.outcome !== 'admitted') throw new Error(`not admitted: ${admission.outcome}`);
  return admission as Extract<A, { outcome: 'admitted' }>;
};
/** Requests of one organization, each running 2 ms, counted while in flight. */
function requests(org: string) {
  const tally = { inFlight: 0, most: 0 };
  const running = () => {
    tally.inFlight += 1;
    tally.most = Math.max(tally.most, tally.inFlight);
  };
  /** Sends one request after another through `limit` while `goOn()`. */
  const worker = async (limit: Pick<OrganizationLimit, 'acquire'>, goOn: () => boolean) => {
    while (goOn()) {
      const admission = await limit.acquire(org);
      if (admission.outcome !== 'admitted') continue;
      running();
      await new Promise((resolve) => setTimeout(resolve, 2));
      tally.inFlight -= 1;
      admission.release();
    }
  };
  return { tally, running, worker };
}
const members = (org: string) => observer.zrange(inflightKeys(prefix, org).active, 0, -1);

describe('slots a replica keeps for its next requests', () => {
  it('runs the next request on the kept slot, with no new slot in Redis, and gives it back once idle', async () => {
    const { limit } = await replica();
    const org = crypto.randomUUID();
    admitted(await limit.acquire(org)).release();
    const slot = await members(org);
    expect(slot).toHaveLength(1);
    const next = admitted(await limit.acquire(org));
    expect(await members(org)).toEqual(slot);
    next.release();
    await eventually('the kept slot given back', async () =>
      (await members(org)).length === 0 ? true : undefined,
    );
  });

  it('gives the kept slots back at once when the replica stops', async () => {
    const { limit, redis } = await replica();
    const org = crypto.randomUUID();
    admitted(await limit.acquire(org)).release();
    expect(await members(org)).toHaveLength(1);
    limit.close?.();
    // Commands on one connection run in order: once the ping is answered, the release has run.
    await redis.ping();
    expect(await members(org)).toEqual([]);
    expect(admitted(await limit.acquire(org)).mode).toBe('shared');
  });

  it('never runs more than 16 across two replicas, and kept slots reach the other replica within the bound', async () => {
    const a = await replica();
    const b = await replica();
    const org = crypto.randomUUID();
    const first = await Promise.all(
      Array.from({ length: ORGANIZATION_IN_FLIGHT }, () => a.limit.acquire(org)),
    );
    for (const admission of first) admitted(admission).release();
    // All 16 are kept by the first replica: the second one's request waits for them.
    const started = Date.now();
    const waiting = b.limit.acquire(org);
    expect(await observer.zcard(inflightKeys(prefix, org).active)).toBe(ORGANIZATION_IN_FLIGHT);
    const running = admitted(await waiting);
    expect(Date.now() - started).toBeLessThan(KEEP_MS + 2_000);
    expect(running.mode).toBe('shared');
    expect(await observer.zcard(inflightKeys(prefix, org).active)).toBeLessThanOrEqual(
      ORGANIZATION_IN_FLIGHT,
    );
    running.release();
  });

  it('counts at most 16 requests in flight while two replicas contend', async () => {
    const replicas = [await replica(), await replica()];
    const org = crypto.randomUUID();
    const { tally, worker } = requests(org);
    const until = Date.now() + 1_000;
    await Promise.all(
      replicas.flatMap(({ limit }) =>
        Array.from({ length: 12 }, () => worker(limit, () => Date.now() < until)),
      ),
    );
    expect(tally.most).toBe(ORGANIZATION_IN_FLIGHT);
    await eventually('every slot given back', async () =>
      (await members(org)).length === 0 ? true : undefined,
    );
  });

  it('keeps reusing its slots while nobody waits, and passes them on once a request waits on another replica', async () => {
    const [a, b] = [await countingReplica(), await countingReplica()];
    const org = crypto.randomUUID();
    const { tally, running, worker } = requests(org);
    let stop = false;
    const workers = Array.from({ length: ORGANIZATION_IN_FLIGHT }, () => worker(a.limit, () => !stop));
    await eventually('16 slots taken', async () =>
      a.calls.acquire >= ORGANIZATION_IN_FLIGHT ? true : undefined,
    );
    const slots = [...(await members(org))].sort();
    const taken = { ...a.calls };
    // More than a lease long: the kept slots are reused, their leases renewed, and Redis is asked
    // for no slot and given none back.
    await new Promise((resolve) => setTimeout(resolve, env.ORGANIZATION_LIMIT_LEASE_MS * 1.5));
    expect(a.calls).toEqual(taken);
    expect([...(await members(org))].sort()).toEqual(slots);

    // A request of the organization waits on the other replica: it gets a slot while the first
    // replica's requests keep coming.
    const other = admitted(await b.limit.acquire(org));
    running();
    expect(a.calls.release).toBeGreaterThan(taken.release);
    expect(await observer.zcard(inflightKeys(prefix, org).active)).toBeLessThanOrEqual(
      ORGANIZATION_IN_FLIGHT,
    );
    tally.inFlight -= 1;
    other.release();
    stop = true;
    await Promise.all(workers);
    expect(tally.most).toBe(ORGANIZATION_IN_FLIGHT);
  });

  it('frees the slots a replica kept when it dies, at the lease expiry', async () => {
    const doomed = await replica();
    const org = crypto.randomUUID();
    const held = await Promise.all(
      Array.from({ length: ORGANIZATION_IN_FLIGHT }, () => doomed.limit.acquire(org)),
    );
    // The replica stops talking to Redis (as a killed process would) while keeping its slots.
    doomed.redis.disconnect();
    for (const admission of held) admitted(admission).release();
    const survivor = await replica();
    const started = Date.now();
    const running = admitted(await survivor.limit.acquire(org));
    expect(Date.now() - started).toBeLessThan(env.ORGANIZATION_LIMIT_LEASE_MS + 2_000);
    running.release();
  });
});
