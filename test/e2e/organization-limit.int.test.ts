import { createRedis, inflightKeys, type Redis } from '@engage/redis';
import {
  createTenant,
  eventually,
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  type Tenant,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlowLedger } from './support/slow-ledger.ts';

/**
 * Two real gateway processes share one organization's limit of 16 requests in flight and 8
 * waiting. Requests are held open by a slow stand-in for the ledger (LEDGER_URL points at it), so
 * forwarded GET /v1/points calls take as long as the test wants.
 */
describe('the organization in-flight limit across two gateway replicas', () => {
  const ledger = new SlowLedger();
  const prefix = uniqueTopicPrefix();
  let a: ServiceProcess;
  let b: ServiceProcess;
  let controlPlane: ServiceProcess | undefined;
  let redis: Redis;
  let tenant: Tenant;
  let sampling = true;
  let maxSampled = 0;
  let sampler: Promise<void>;

  const points = (gateway: ServiceProcess, apiKey: string) =>
    fetch(`${gateway.url}/v1/points?PlayerId=limit-player`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
  const slots = async () => {
    const keys = inflightKeys(prefix, tenant.organizationId);
    return { active: await redis.zcard(keys.active), waiting: await redis.zcard(keys.waiting) };
  };

  beforeAll(async () => {
    await ledger.listen();
    const env = serviceEnv(prefix, {
      LEDGER_URL: ledger.url,
      ORGANIZATION_LIMIT_LEASE_MS: '3000',
      ORGANIZATION_LIMIT_MAX_WAIT_MS: '120000',
    });
    [a, b] = await Promise.all([
      spawnService(stackConfig().repoRoot, 'gateway', env),
      spawnService(stackConfig().repoRoot, 'gateway', env),
    ]);
    redis = createRedis(stackConfig().redisUrl);
    controlPlane = await spawnService(stackConfig().repoRoot, 'control-plane', {
      ...env,
      GATEWAY_URL: a.url,
    });
    tenant = await createTenant(controlPlane.url);
    // The player exists in both environments before the concurrent calls.
    ledger.open();
    for (const key of [tenant.sandbox.apiKey, tenant.live.apiKey])
      expect((await points(a, key)).status).toBe(200);
    ledger.reset();
    sampler = (async () => {
      while (sampling) {
        maxSampled = Math.max(maxSampled, (await slots()).active);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
  }, 120_000);

  afterAll(async () => {
    sampling = false;
    await sampler;
    ledger.open();
    await Promise.all([a?.stop(), b?.stop(), controlPlane?.stop()]);
    await redis?.quit();
    await ledger.close();
  });

  it('runs 16 at once across replicas and environments, lets 8 wait and refuses the 25th at once', async () => {
    const calls = Array.from({ length: 24 }, (_, i) =>
      points(i % 2 ? a : b, i % 3 ? tenant.sandbox.apiKey : tenant.live.apiKey),
    );
    await eventually('16 requests running and 8 waiting', async () => {
      const now = await slots();
      return ledger.inFlight === 16 && now.waiting === 8 ? now : undefined;
    });

    for (const gateway of [a, b]) {
      const refused = await points(gateway, tenant.live.apiKey);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({
        status: 429,
        code: 'tenant.too_many_concurrent_requests',
      });
    }
    // Refused requests wrote nothing and never reached the owning service.
    expect(ledger.arrivals).toBe(16);

    ledger.open();
    const statuses = await Promise.all(calls.map(async (call) => (await call).status));
    expect(statuses).toEqual(Array(24).fill(200));
    expect(ledger.arrivals).toBe(24);
    expect(ledger.maxInFlight).toBe(16);
    expect(maxSampled).toBeLessThanOrEqual(16);
    await eventually('every slot given back', async () => ((await slots()).active === 0 ? true : undefined));
  });

  it('frees the slots of a gateway that is killed while holding them', async () => {
    ledger.reset();
    const held = Array.from({ length: 16 }, () => points(a, tenant.sandbox.apiKey).catch(() => undefined));
    await eventually('16 requests running through one replica', async () =>
      ledger.inFlight === 16 ? true : undefined,
    );
    expect((await slots()).active).toBe(16);

    await a.kill('SIGKILL');
    await Promise.all(held);
    // Nobody refreshes the dead replica's leases: they run out (ORGANIZATION_LIMIT_LEASE_MS).
    await eventually('the dead replica’s slots to be free', async () =>
      (await slots()).active === 0 ? true : undefined,
    );
    ledger.reset();
    const calls = Array.from({ length: 16 }, () => points(b, tenant.sandbox.apiKey));
    await eventually('16 requests running through the surviving replica', async () =>
      ledger.inFlight === 16 ? true : undefined,
    );
    ledger.open();
    expect(await Promise.all(calls.map(async (call) => (await call).status))).toEqual(Array(16).fill(200));
    expect(maxSampled).toBeLessThanOrEqual(16);
  });
});
