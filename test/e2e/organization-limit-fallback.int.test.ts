import { createRedis, inflightKeys, type Redis } from '@engage/redis';
import {
  createTenant,
  eventually,
  type ServiceProcess,
  serviceEnv,
  spawnService,
  stackConfig,
  TcpLink,
  type Tenant,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlowLedger } from './support/slow-ledger.ts';

/**
 * A real gateway process whose Redis sits behind a link the test controls. While Redis is cut off
 * (connections refused) or partitioned (connections hang), the gateway keeps serving under its
 * fixed per-replica share (ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT: 4 running, 2 waiting) instead of
 * failing open or closed, and goes back to the shared limit when Redis returns.
 */
const FALLBACK_IN_FLIGHT = 4;
const FALLBACK_WAITING = 2;

describe('the organization limit while Redis is unreachable', () => {
  const ledger = new SlowLedger();
  const prefix = uniqueTopicPrefix();
  let link: TcpLink;
  let gateway: ServiceProcess;
  let controlPlane: ServiceProcess | undefined;
  let redis: Redis;
  let tenant: Tenant;

  const points = () =>
    fetch(`${gateway.url}/v1/points?PlayerId=fallback-player`, {
      headers: { authorization: `Bearer ${tenant.sandbox.apiKey}` },
    });
  const sharedSlots = () => redis.zcard(inflightKeys(prefix, tenant.organizationId).active);
  const fallbackAdmissions = async () => {
    const metrics = await (await fetch(gateway.metricsUrl)).text();
    return Number(/^engage_organization_limit_fallbacks_total (\d+)/m.exec(metrics)?.[1] ?? 0);
  };

  beforeAll(async () => {
    await ledger.listen();
    const redisUrl = new URL(stackConfig().redisUrl);
    link = await TcpLink.open({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    redisUrl.port = String(link.port);
    gateway = await spawnService(
      stackConfig().repoRoot,
      'gateway',
      serviceEnv(prefix, {
        LEDGER_URL: ledger.url,
        REDIS_URL: redisUrl.toString(),
        ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT: String(FALLBACK_IN_FLIGHT),
      }),
    );
    controlPlane = await spawnService(
      stackConfig().repoRoot,
      'control-plane',
      serviceEnv(prefix, { GATEWAY_URL: gateway.url }),
    );
    redis = createRedis(stackConfig().redisUrl);
    tenant = await createTenant(controlPlane!.url);
    ledger.open();
    expect((await points()).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    ledger.open();
    await gateway?.stop();
    await controlPlane?.stop();
    await redis?.quit();
    await link?.close();
    await ledger.close();
  });

  /** Sends `count` held requests, checks what ran and what was refused, then lets them finish. */
  async function burstUnderTheShare(count: number) {
    ledger.reset();
    const admitted = FALLBACK_IN_FLIGHT + FALLBACK_WAITING;
    let answered = 0;
    const calls = Array.from({ length: count }, () =>
      points().finally(() => {
        answered += 1;
      }),
    );
    // Every request has arrived (the refused ones are answered at once) before any slot frees up.
    await eventually(`${FALLBACK_IN_FLIGHT} requests running on the replica's share`, async () =>
      ledger.inFlight === FALLBACK_IN_FLIGHT && answered === count - admitted ? true : undefined,
    );
    ledger.open();
    const answers = await Promise.all(calls);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(admitted).fill(200), ...Array(count - admitted).fill(429)]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'tenant.too_many_concurrent_requests' });
    expect(ledger.maxInFlight).toBe(FALLBACK_IN_FLIGHT);
    expect(ledger.arrivals).toBe(admitted);
  }

  it('serves under the per-replica share while Redis refuses connections', async () => {
    link.cut();
    const before = await fallbackAdmissions();
    await burstUnderTheShare(10);
    expect(await fallbackAdmissions()).toBeGreaterThanOrEqual(before + FALLBACK_IN_FLIGHT + FALLBACK_WAITING);
  });

  it('serves under the per-replica share while Redis hangs (a partition), without hanging itself', async () => {
    link.blackhole();
    const before = await fallbackAdmissions();
    await burstUnderTheShare(9);
    expect(await fallbackAdmissions()).toBeGreaterThan(before);
  });

  it('goes back to the limit shared on Redis once Redis answers again', async () => {
    link.restore();
    ledger.reset();
    const held = await eventually('a request holding a slot on Redis again', async () => {
      const call = points();
      await eventually('the request to reach the ledger', async () =>
        ledger.inFlight > 0 ? true : undefined,
      );
      // Wrapped: an async probe returning the promise itself would wait for the held answer.
      if ((await sharedSlots()) === 1) return { call };
      ledger.open();
      await call;
      ledger.reset();
      return undefined;
    });
    ledger.open();
    const answer = await held.call;
    if (answer.status !== 200)
      console.log(
        gateway
          .logs()
          .split('\n')
          .filter((l) => /"level":(40|50)/.test(l))
          .slice(-8)
          .join('\n'),
      );
    expect(answer.status).toBe(200);
    await eventually('the slot given back on Redis', async () =>
      (await sharedSlots()) === 0 ? true : undefined,
    );
  });
});
