import { decodePlayerContext, INTERNAL_HEADERS } from '@engage/contracts';
import { createTenant, type Tenant } from '@engage/testkit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, startGateway } from './support.ts';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

let upstream: FastifyInstance;
let gateway: InProcessGateway;
let tenant: Tenant;
const seen: Seen[] = [];

beforeAll(async () => {
  // A tiny owning service: records what it got and answers like the real ones do.
  upstream = Fastify();
  upstream.all('/*', async (request, reply) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: request.body });
    if (request.url.startsWith('/v1/streaks/missing')) {
      return reply
        .code(404)
        .type('application/problem+json')
        .header('cache-control', 'no-store')
        .send({ status: 404, code: 'streak.not_found', instance: request.url.split('?')[0] });
    }
    if ((request.body as { idempotencyKey?: string } | undefined)?.idempotencyKey === 'used') {
      reply.header('idempotent-replayed', 'true');
    }
    return reply.header('retry-after', '3').send({ echoed: request.body ?? null });
  });
  const upstreamUrl = await upstream.listen({ host: '127.0.0.1', port: 0 });
  gateway = await startGateway({
    upstreams: { rules: upstreamUrl, ledger: upstreamUrl, query: upstreamUrl },
  });
  tenant = await createTenant(gateway.controlPlaneUrl);
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const playerHeader = (s: Seen) => decodePlayerContext(String(s.headers[INTERNAL_HEADERS.player]));

describe('forwarding', () => {
  it('forwards a GET verbatim with the environment, the player and the trace', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const url = `/v1/leaderboards/weekly?PlayerId=${playerId}&Top=5&PlayerIds=a&PlayerIds=b`;
    const res = await fetch(`${gateway.url}${url}`, { headers: bearer(tenant.sandbox.apiKey) });
    expect(res.status).toBe(200);
    expect(res.headers.get('retry-after')).toBe('3');
    const got = seen.at(-1)!;
    expect(got.method).toBe('GET');
    expect(got.url).toBe(url);
    expect(got.headers[INTERNAL_HEADERS.organizationId]).toBe(tenant.organizationId);
    expect(got.headers[INTERNAL_HEADERS.environmentId]).toBe(tenant.sandbox.environmentId);
    expect(got.headers[INTERNAL_HEADERS.environmentKind]).toBe('Sandbox');
    expect(got.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(got.headers.authorization).toBeUndefined();
    expect(playerHeader(got)).toEqual({ id: playerId, timeZone: null, attributes: {}, isNew: true });

    await fetch(`${gateway.url}${url}`, { headers: bearer(tenant.sandbox.apiKey) });
    expect(playerHeader(seen.at(-1)!).isNew).toBe(false);
  });

  it('reports a new player as new to exactly one of concurrent requests', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const before = seen.length;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${gateway.url}/v1/points?PlayerId=${playerId}`, { headers: bearer(tenant.sandbox.apiKey) }),
      ),
    );
    const flags = seen.slice(before).map((s) => playerHeader(s).isNew);
    expect(flags).toHaveLength(8);
    expect(flags.filter(Boolean)).toHaveLength(1);
  });

  it('forwards a POST body verbatim and passes back status, body and headers', async () => {
    const payload = '{"playerId":"p1","amount":12,"reason":"gift","idempotencyKey":"k"}';
    const res = await fetch(`${gateway.url}/v1/points/adjustments`, {
      method: 'POST',
      headers: { ...bearer(tenant.sandbox.apiKey), 'content-type': 'application/json' },
      body: payload,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ echoed: JSON.parse(payload) });
    expect(seen.at(-1)!.url).toBe('/v1/points/adjustments');

    const missing = await fetch(`${gateway.url}/v1/streaks/missing?PlayerId=p1`, {
      headers: bearer(tenant.sandbox.apiKey),
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(await missing.json()).toMatchObject({ code: 'streak.not_found', instance: '/v1/streaks/missing' });
  });

  it("passes back the owner's Idempotent-Replayed header", async () => {
    const adjust = (idempotencyKey: string) =>
      fetch(`${gateway.url}/v1/points/adjustments`, {
        method: 'POST',
        headers: { ...bearer(tenant.sandbox.apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ playerId: 'p1', amount: 1, idempotencyKey }),
      });
    const replayed = await adjust('used');
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const fresh = await adjust('new');
    expect([fresh.status, fresh.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('refuses text that cannot be stored, in the path, the query or the body, before forwarding', async () => {
    const before = seen.length;
    const json = { 'content-type': 'application/json' };
    const cases: [string, RequestInit, string, string][] = [
      ['/v1/points?PlayerId=a%00', {}, 'validation.player_id', 'PlayerId'],
      ['/v1/points?PlayerId=a&Extra=%00', {}, 'validation.extra', 'Extra'],
      ['/v1/streaks/daily%00?PlayerId=a', {}, 'validation.streak_key', 'streakKey'],
      [
        '/v1/points/adjustments',
        { method: 'POST', headers: json, body: '{"playerId":"p1","amount":1,"reason":"gift\\u0000"}' },
        'validation.reason',
        'reason',
      ],
      [
        '/v1/points/adjustments',
        { method: 'POST', headers: json, body: '{"playerId":"p1","amount":1,"idempotencyKey":"k\\ud800"}' },
        'validation.idempotency_key',
        'idempotencyKey',
      ],
      [
        '/v1/players/attributes',
        { method: 'POST', headers: json, body: '{"playerId":"p1","attributes":{"tier":"\\udc00"}}' },
        'validation.attributes',
        'attributes.tier',
      ],
    ];
    for (const [path, init, code, where] of cases) {
      const res = await fetch(`${gateway.url}${path}`, {
        ...init,
        headers: { ...bearer(tenant.sandbox.apiKey), ...(init.headers as Record<string, string>) },
      });
      const body = (await res.json()) as { code: string; errors: { meta: Record<string, unknown> }[] };
      expect([res.status, body.code, body.errors[0]?.meta], path).toEqual([
        400,
        code,
        { path: where, reason: 'unrepresentable_text' },
      ]);
    }
    const notUtf8 = await fetch(`${gateway.url}/v1/points/adjustments`, {
      method: 'POST',
      headers: { ...bearer(tenant.sandbox.apiKey), ...json },
      body: Buffer.concat([
        Buffer.from('{"playerId":"p1","amount":1,"idempotencyKey":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
    });
    expect([notUtf8.status, ((await notUtf8.json()) as { code: string }).code]).toEqual([
      400,
      'validation.request',
    ]);
    expect(seen.length).toBe(before);
  });

  it('forwards a request without a valid player id with no player; the refusal stands if the owner misses it', async () => {
    const before = seen.length;
    const cases: [string, RequestInit, string][] = [
      ['/v1/points', {}, 'player.external_id_missing'],
      [`/v1/points?PlayerId=${'x'.repeat(201)}`, {}, 'player.external_id_too_long'],
      [
        '/v1/missions',
        { method: 'POST', body: '{"languageCode":"en"}', headers: { 'content-type': 'application/json' } },
        'player.external_id_missing',
      ],
    ];
    for (const [path, init, code] of cases) {
      const res = await fetch(`${gateway.url}${path}`, {
        ...init,
        headers: { ...bearer(tenant.sandbox.apiKey), ...(init.headers as Record<string, string>) },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
    // Forwarded for the owner to list every broken rule, but never for a player.
    expect(seen.length).toBe(before + cases.length);
    expect(seen.slice(before).map((s) => s.headers[INTERNAL_HEADERS.player])).toEqual(
      cases.map(() => undefined),
    );
  });

  it('answers 500 server.unexpected when the owner is down', async () => {
    const lonely = await startGateway();
    try {
      const t = await createTenant(lonely.controlPlaneUrl);
      const res = await fetch(`${lonely.url}/v1/points?PlayerId=p`, { headers: bearer(t.sandbox.apiKey) });
      expect(res.status).toBe(500);
      expect(((await res.json()) as { code: string }).code).toBe('server.unexpected');
      // A request the gateway itself refuses gets that refusal, not a 500.
      const refused = await fetch(`${lonely.url}/v1/points`, { headers: bearer(t.sandbox.apiKey) });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toBe('player.external_id_missing');
    } finally {
      await lonely.close();
    }
  });
});
