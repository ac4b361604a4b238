import { createLogger } from '@engage/kit';
import { createRedis } from '@engage/redis';
import { stackConfig } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createOrganizationLimit,
  type OrganizationAdmission,
} from '../../src/application/organization-limit/organization-limit.ts';

const env = {
  ORGANIZATION_LIMIT_LEASE_MS: 10_000,
  ORGANIZATION_LIMIT_MAX_WAIT_MS: 60_000,
  ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT: 2,
  ORGANIZATION_LIMIT_KEEP_SLOT_MS: 100,
};
const log = createLogger('test', 'silent');
const reachable = createRedis(stackConfig().redisUrl);
// Nothing listens on port 1: every call finds Redis unreachable.
const unreachable = createRedis('redis://127.0.0.1:1');
const limitWithoutRedis = createOrganizationLimit({ redis: unreachable, keyPrefix: 'unused.', env, log });

afterAll(async () => {
  await reachable.quit();
  unreachable.disconnect();
});

const admitted = (admission: OrganizationAdmission) => {
  if (admission.outcome !== 'admitted') throw new Error(`not admitted: ${admission.outcome}`);
  return admission;
};

describe('the organization limit of one gateway replica', () => {
  it('shares the limit through Redis when Redis answers', async () => {
    await reachable.ping();
    const limit = createOrganizationLimit({ redis: reachable, keyPrefix: `t${Date.now()}.`, env, log });
    const admission = admitted(await limit.acquire(crypto.randomUUID()));
    expect(admission.mode).toBe('shared');
    admission.release();
  });

  it('falls back to a fixed per-replica share when Redis is unreachable, neither open nor closed', async () => {
    const limit = limitWithoutRedis;
    const org = crypto.randomUUID();
    const running = [admitted(await limit.acquire(org)), admitted(await limit.acquire(org))];
    expect(running.map((r) => r.mode)).toEqual(['fallback', 'fallback']);
    const waiting = limit.acquire(org);
    expect(await limit.acquire(org)).toMatchObject({ outcome: 'refused', reason: 'full' });
    // Another organization has a share of its own.
    admitted(await limit.acquire(crypto.randomUUID())).release();
    running[0]!.release();
    expect(admitted(await waiting).mode).toBe('fallback');
  });

  it('counts a request running on a slot kept from Redis in the share once Redis is gone', async () => {
    const redis = createRedis(stackConfig().redisUrl);
    await redis.ping();
    const limit = createOrganizationLimit({ redis, keyPrefix: `t${Date.now()}.`, env, log });
    const org = crypto.randomUUID();
    admitted(await limit.acquire(org)).release();
    redis.disconnect();
    // The kept slot runs one request; the share of 2 has room for one more beside it.
    const onKept = admitted(await limit.acquire(org));
    expect(onKept.mode).toBe('shared');
    expect(admitted(await limit.acquire(org)).mode).toBe('fallback');
    const waiting = limit.acquire(org);
    expect(await limit.acquire(org)).toMatchObject({ outcome: 'refused', reason: 'full' });
    // The request on the kept slot ends: the waiting one runs in its place.
    onKept.release();
    expect(admitted(await waiting).mode).toBe('fallback');
  });
});
