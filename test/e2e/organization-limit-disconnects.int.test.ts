import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { AdminClient } from '@engage/cli';
import { createRedis, inflightKeys, type Redis } from '@engage/redis';
import {
  createTenant,
  eventually,
  type ServiceProcess,
  seededRandom,
  serviceEnv,
  spawnService,
  stackConfig,
  TEST_ADMIN_TOKEN,
  type Tenant,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlowLedger } from './support/slow-ledger.ts';

/** Where a client gives up on its request. */
const LEAVES = ['mid-head', 'after-sending', 'after-a-while', 'mid-response', 'never'] as const;
type Leave = (typeof LEAVES)[number];
/** How long the owning service takes (encoded in the player id, so the stand-in ledger can read it). */
const PACES_MS = [0, 10, 50, 150, 400];
const REQUESTS = 400;
/** Clients at once: more than the organization's 16 running and 8 waiting, so some are refused. */
const CLIENTS = 40;
const FRESH_KEYS = 40;

function testSeed(): number {
  const seed = Number(process.env.ORGANIZATION_LIMIT_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
  process.stdout.write(
    `[organization limit disconnects] seed ${seed} (replay with ORGANIZATION_LIMIT_TEST_SEED=${seed})\n`,
  );
  return seed;
}

/**
 * Clients of one organization leave two real gateway processes at random points of their requests
 * (a seeded schedule): before the request head is complete, right after sending it (while the key
 * is checked: keys used for the first time may still be on their way to a gateway), while waiting
 * or running, mid-response, or not at all; some requests fail in the owning service. Afterwards no
 * slot may be held in Redis and the organization runs 16 requests at once again. Leases are long
 * (60 s), so slots the gateways forgot cannot pass by running out.
 */
describe('the organization limit under clients that go away', () => {
  const ledger = new SlowLedger({
    pace: (url) => {
      const match = /PlayerId=pace-(\d+)-(ok|drop)/.exec(url);
      return { delayMs: Number(match?.[1] ?? 0), drop: match?.[2] === 'drop' };
    },
  });
  const prefix = uniqueTopicPrefix();
  let gateways: ServiceProcess[];
  let controlPlane: ServiceProcess | undefined;
  let redis: Redis;
  let tenant: Tenant;
  let freshKeys: string[];

  const slots = async () => {
    const keys = inflightKeys(prefix, tenant.organizationId);
    return { active: await redis.zcard(keys.active), waiting: await redis.zcard(keys.waiting) };
  };
  const points = (gateway: ServiceProcess, apiKey: string, playerId: string) =>
    fetch(`${gateway.url}/v1/points?PlayerId=${playerId}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });

  beforeAll(async () => {
    await ledger.listen();
    const env = serviceEnv(prefix, {
      LEDGER_URL: ledger.url,
      ORGANIZATION_LIMIT_LEASE_MS: '60000',
      // Bounded, so that on a gateway that leaks slots the schedule still ends (in refusals).
      ORGANIZATION_LIMIT_MAX_WAIT_MS: '5000',
    });
    gateways = await Promise.all([
      spawnService(stackConfig().repoRoot, 'gateway', env),
      spawnService(stackConfig().repoRoot, 'gateway', env),
    ]);
    redis = createRedis(stackConfig().redisUrl);
    controlPlane = await spawnService(stackConfig().repoRoot, 'control-plane', {
      ...env,
      GATEWAY_URL: gateways[0]!.url,
    });
    tenant = await createTenant(controlPlane.url);
    const admin = new AdminClient({ url: controlPlane.url, token: TEST_ADMIN_TOKEN });
    freshKeys = [];
    for (let i = 0; i < FRESH_KEYS; i++)
      freshKeys.push((await admin.createApiKey(tenant.sandbox.environmentId)).apiKey);
    // The players exist in both environments before the concurrent calls.
    ledger.open();
    for (const key of [tenant.sandbox.apiKey, tenant.live.apiKey])
      for (const pace of PACES_MS)
        for (const outcome of ['ok', 'drop'])
          await (await points(gateways[0]!, key, `pace-${pace}-${outcome}`)).arrayBuffer();
  }, 120_000);

  afterAll(async () => {
    ledger.open();
    await Promise.all([...(gateways ?? []), ...(controlPlane ? [controlPlane] : [])].map((s) => s.stop()));
    await redis?.quit();
    await ledger.close();
  });

  it('holds no slot once every client has gone, and runs 16 at once again', async () => {
    const random = seededRandom(testSeed());
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const schedule = Array.from({ length: REQUESTS }, () => {
      const fresh = freshKeys.length > 0 && random() < 0.25;
      return {
        gateway: pick(gateways),
        apiKey: fresh ? freshKeys.pop()! : pick([tenant.sandbox.apiKey, tenant.live.apiKey]),
        playerId: `pace-${pick(PACES_MS)}-${random() < 0.1 ? 'drop' : 'ok'}`,
        leave: pick(LEAVES),
        headCut: random(),
        afterMs: Math.floor(random() * 300),
      };
    });
    const left: Record<Leave, number> = {
      'mid-head': 0,
      'after-sending': 0,
      'after-a-while': 0,
      'mid-response': 0,
      never: 0,
    };
    const answered: Record<string, number> = {};
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < schedule.length) {
          const step = schedule[next++]!;
          left[step.leave] += 1;
          const status = await request(step);
          if (status) answered[status] = (answered[status] ?? 0) + 1;
        }
      }),
    );
    process.stdout.write(
      `[organization limit disconnects] clients left: ${JSON.stringify(left)}; ` +
        `statuses of those that stayed: ${JSON.stringify(answered)}\n`,
    );

    await eventually(
      'no slot held and nobody waiting',
      async () => {
        const now = await slots();
        return now.active === 0 && now.waiting === 0 ? now : undefined;
      },
      { timeoutMs: 20_000 },
    ).catch(() => undefined);
    expect(await slots()).toEqual({ active: 0, waiting: 0 });

    ledger.reset();
    const calls = Array.from({ length: 16 }, (_, i) =>
      points(gateways[i % 2]!, i % 3 ? tenant.sandbox.apiKey : tenant.live.apiKey, 'pace-0-ok'),
    );
    await eventually('16 requests running across both gateways', async () =>
      ledger.inFlight === 16 ? true : undefined,
    );
    expect(await slots()).toEqual({ active: 16, waiting: 0 });
    ledger.open();
    expect(await Promise.all(calls.map(async (call) => (await call).status))).toEqual(Array(16).fill(200));
    await eventually('the 16 slots given back', async () =>
      (await slots()).active === 0 ? true : undefined,
    );
  }, 180_000);
});

/** One request over a raw socket, abandoned where the schedule says; the status if it stayed. */
async function request(step: {
  gateway: ServiceProcess;
  apiKey: string;
  playerId: string;
  leave: Leave;
  headCut: number;
  afterMs: number;
}): Promise<string | undefined> {
  const socket: Socket = connect(step.gateway.port, '127.0.0.1');
  socket.on('error', () => undefined);
  const closed = once(socket, 'close');
  await once(socket, 'connect');
  const head =
    `GET /v1/points?PlayerId=${step.playerId} HTTP/1.1\r\nhost: localhost\r\n` +
    `authorization: Bearer ${step.apiKey}\r\nconnection: close\r\n\r\n`;
  switch (step.leave) {
    case 'mid-head':
      socket.write(head.slice(0, 1 + Math.floor(step.headCut * (head.length - 2))));
      await new Promise((resolve) => setTimeout(resolve, step.afterMs / 10));
      socket.destroy();
      break;
    case 'after-sending':
      socket.end(head);
      socket.destroy();
      break;
    case 'after-a-while':
      socket.write(head);
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, step.afterMs))]);
      socket.destroy();
      break;
    case 'mid-response':
      socket.write(head);
      await Promise.race([closed, once(socket, 'data')]);
      socket.destroy();
      break;
    case 'never': {
      let response = '';
      socket.on('data', (chunk: Buffer) => {
        response += chunk.toString();
      });
      socket.write(head);
      await closed;
      return response.split(' ')[1] ?? 'none';
    }
  }
  await closed;
  return undefined;
}
