import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { createHttpApp, createLogger, type HttpApp } from '@engage/kit';
import { createRedis, inflightKeys } from '@engage/redis';
import { eventually, stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotsHeld } from '../../src/application/organization-limit/metrics.ts';
import {
  createOrganizationLimit,
  ORGANIZATION_IN_FLIGHT,
  type OrganizationAdmission,
  type OrganizationLimit,
  registerOrganizationLimit,
} from '../../src/application/organization-limit/organization-limit.ts';
import '../../src/http/api-key-scope.ts';

/**
 * The organization limit on the real Redis, in a real HTTP server, with clients that go away at
 * each point of a request's life. An `authorization` header stands for a project key: `slow` is
 * checked only once the client is gone (the first use of a key, or an expired key cache, with a
 * client that does not wait); the handler holds (`x-hold`) or fails (`x-fail`) when asked.
 */
const env = {
  ORGANIZATION_LIMIT_LEASE_MS: 10_000,
  ORGANIZATION_LIMIT_MAX_WAIT_MS: 60_000,
  ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT: 2,
  ORGANIZATION_LIMIT_KEEP_SLOT_MS: 100,
};
const log = createLogger('test', 'silent');
const redis = createRedis(stackConfig().redisUrl);
const prefix = `t${crypto.randomUUID().slice(0, 8)}.`;

/** The real limit, watched: how many acquisitions finished and how many slots were given back. */
function watched(limit: OrganizationLimit) {
  const seen = { settled: 0, admitted: 0, released: 0 };
  const waiters: Array<() => void> = [];
  const watchedLimit: OrganizationLimit = {
    async acquire(organizationId, signal) {
      let admission: OrganizationAdmission;
      try {
        admission = await limit.acquire(organizationId, signal);
      } finally {
        seen.settled += 1;
        for (const wake of waiters.splice(0)) wake();
      }
      if (admission.outcome !== 'admitted') return admission;
      seen.admitted += 1;
      return {
        ...admission,
        release: () => {
          seen.released += 1;
          admission.release();
        },
      };
    },
  };
  const settled = async (count: number) => {
    while (seen.settled < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { limit: watchedLimit, seen, settled };
}

async function serve(limit: OrganizationLimit, organizationId: string) {
  const app: HttpApp = createHttpApp({ log });
  registerOrganizationLimit(app, limit);
  let gate!: () => void;
  const held = new Promise<void>((resolve) => {
    gate = resolve;
  });
  let running = 0;
  let closed = 0;
  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!request.headers.authorization) return;
      reply.raw.once('close', () => {
        closed += 1;
      });
      if (request.headers.authorization === 'slow' && !reply.raw.destroyed) await once(reply.raw, 'close');
      request.environment = { organizationId, environmentId: 'env-1', environmentKind: 'Sandbox' };
    });
    scope.post('/v1/things', async (request) => {
      running += 1;
      try {
        if (request.headers['x-hold']) await held;
        if (request.headers['x-fail']) throw new Error('the handler failed');
        return { ok: true };
      } finally {
        running -= 1;
      }
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return { app, port: address.port, open: () => gate(), running: () => running, closed: () => closed };
}

/** Sends a request's head (and `body`, if any) over a raw socket and returns the open socket. */
async function send(port: number, headers: Record<string, string>, body = '{}', contentLength?: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const head = Object.entries({
    host: 'localhost',
    'content-type': 'application/json',
    'content-length': String(contentLength ?? Buffer.byteLength(body)),
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST /v1/things HTTP/1.1\r\n${head}\r\n${body}`);
  socket.on('error', () => undefined);
  return socket;
}

async function responseOf(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  await new Promise<void>((resolve) => {
    const check = () => {
      if (/\r\n\r\n/.test(text)) resolve();
    };
    socket.on('data', check);
    socket.once('close', () => resolve());
  });
  socket.destroy();
  return text.slice(0, text.indexOf('\r\n'));
}

const slotsInRedis = async (organizationId: string) => {
  const keys = inflightKeys(prefix, organizationId);
  return { active: await redis.zcard(keys.active), waiting: await redis.zcard(keys.waiting) };
};
const noSlotsInRedis = (organizationId: string) =>
  eventually('every slot given back in Redis', async () => {
    const now = await slotsInRedis(organizationId);
    return now.active === 0 && now.waiting === 0 ? now : undefined;
  });
/** This process's gauge of held slots (all tests' organizations). */
const slotsHeldHere = async () => (await slotsHeld.get()).values.reduce((sum, v) => sum + v.value, 0);

beforeAll(async () => {
  await redis.ping();
});

afterAll(async () => {
  await redis.quit();
});

describe('a slot of the organization limit', () => {
  it('is not kept by a request whose client left while its key was checked', async () => {
    const organizationId = crypto.randomUUID();
    const { limit, seen, settled } = watched(createOrganizationLimit({ redis, keyPrefix: prefix, env, log }));
    const server = await serve(limit, organizationId);
    const heldBefore = await slotsHeldHere();
    try {
      for (let i = 1; i <= 3; i++) {
        const socket = await send(server.port, { authorization: 'slow' });
        // The server sees the close while the key is being checked (the check waits for it).
        socket.destroy();
        await settled(i);
        expect(seen.released).toBe(seen.admitted);
      }
      expect(server.running()).toBe(0);
      await noSlotsInRedis(organizationId);
      expect(await slotsHeldHere()).toBe(heldBefore);
    } finally {
      await server.app.close();
    }
  });

  it('is not kept under the per-replica share either (Redis unreachable)', async () => {
    const organizationId = crypto.randomUUID();
    // Nothing listens on port 1: the limit falls back to its per-replica share.
    const unreachable = createRedis('redis://127.0.0.1:1');
    const { limit, seen, settled } = watched(
      createOrganizationLimit({ redis: unreachable, keyPrefix: prefix, env, log }),
    );
    const server = await serve(limit, organizationId);
    const heldBefore = await slotsHeldHere();
    try {
      for (let i = 1; i <= 3; i++) {
        (await send(server.port, { authorization: 'slow' })).destroy();
        await settled(i);
        expect(seen.released).toBe(seen.admitted);
      }
      expect(await slotsHeldHere()).toBe(heldBefore);
      // The whole share is free: two requests run at once without waiting.
      const running = [
        await send(server.port, { authorization: 'key', 'x-hold': '1' }),
        await send(server.port, { authorization: 'key', 'x-hold': '1' }),
      ];
      await eventually('the share’s two requests running', async () =>
        server.running() === 2 ? true : undefined,
      );
      server.open();
      expect(await Promise.all(running.map(responseOf))).toEqual(Array(2).fill('HTTP/1.1 200 OK'));
      expect(await slotsHeldHere()).toBe(heldBefore);
    } finally {
      await server.app.close();
      unreachable.disconnect();
    }
  });

  it('is given back when the client leaves while waiting, once the work of one that left while running ends, mid-body or after a failure', async () => {
    const organizationId = crypto.randomUUID();
    const { limit } = watched(createOrganizationLimit({ redis, keyPrefix: prefix, env, log }));
    const server = await serve(limit, organizationId);
    const heldBefore = await slotsHeldHere();
    try {
      const running = await Promise.all(
        Array.from({ length: ORGANIZATION_IN_FLIGHT }, () =>
          send(server.port, { authorization: 'key', 'x-hold': '1' }),
        ),
      );
      await eventually('16 requests running', async () =>
        server.running() === ORGANIZATION_IN_FLIGHT ? true : undefined,
      );
      const waiting = await send(server.port, { authorization: 'key' });
      await eventually('one request waiting', async () =>
        (await slotsInRedis(organizationId)).waiting === 1 ? true : undefined,
      );
      waiting.destroy();
      await eventually('the waiting room empty again', async () =>
        (await slotsInRedis(organizationId)).waiting === 0 ? true : undefined,
      );
      // Half of the running requests lose their clients while their handlers still work: their
      // slots stay held until that work ends, so leaving frees no room for more work.
      const closedBefore = server.closed();
      for (const socket of running.slice(0, 8)) socket.destroy();
      await eventually('the 8 closes seen by the server', async () =>
        server.closed() === closedBefore + 8 ? true : undefined,
      );
      const next = await Promise.all(
        Array.from({ length: 8 }, () => send(server.port, { authorization: 'key', 'x-hold': '1' })),
      );
      await eventually('8 more requests waiting', async () =>
        (await slotsInRedis(organizationId)).waiting === 8 ? true : undefined,
      );
      expect(server.running()).toBe(ORGANIZATION_IN_FLIGHT);
      expect((await slotsInRedis(organizationId)).active).toBe(ORGANIZATION_IN_FLIGHT);
      server.open();
      expect(await Promise.all([...running.slice(8), ...next].map(responseOf))).toEqual(
        Array(16).fill('HTTP/1.1 200 OK'),
      );
      await noSlotsInRedis(organizationId);

      // A failing handler, and a body that never arrives in full.
      expect(await responseOf(await send(server.port, { authorization: 'key', 'x-fail': '1' }))).toBe(
        'HTTP/1.1 500 Internal Server Error',
      );
      const truncated = await send(server.port, { authorization: 'key' }, '{"a":', 1_000);
      await eventually('the truncated request admitted', async () =>
        (await slotsInRedis(organizationId)).active === 1 ? true : undefined,
      );
      truncated.destroy();
      await noSlotsInRedis(organizationId);
      expect(await slotsHeldHere()).toBe(heldBefore);
    } finally {
      await server.app.close();
    }
  });
});
