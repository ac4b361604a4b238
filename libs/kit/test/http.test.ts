import {
  encodePlayerContext,
  INTERNAL_HEADERS,
  PlayerBodySchema,
  PlayerQuerySchema,
} from '@engage/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp, createLogger, playerOf, problem } from '../src/index.ts';

function app() {
  const a = createHttpApp({ log: createLogger('test', 'silent'), bodyLimit: 1024 });
  a.get('/v1/points', { schema: { querystring: PlayerQuerySchema } }, async (req) => ({
    playerId: req.query.PlayerId,
  }));
  a.post(
    '/v1/points/adjustments',
    { schema: { body: PlayerBodySchema.extend({ amount: z.int() }) } },
    async (req) => ({ amount: req.body.amount }),
  );
  a.get('/v1/conflict', async () => {
    throw problem('points.insufficient_balance', 'Not enough points.');
  });
  a.get('/v1/boom', async () => {
    throw new Error('secret internal detail');
  });
  a.post(
    '/v1/shop/:itemKey',
    { schema: { params: z.object({ itemKey: z.string() }), body: z.record(z.string(), z.unknown()) } },
    async (req) => ({ itemKey: req.params.itemKey, player: playerOf(req).id }),
  );
  return a;
}

describe('problem documents', () => {
  it('answers a missing player id with its own code and the fixed validation sentence', async () => {
    const res = await app().inject({ method: 'GET', url: '/v1/points?Other=1' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const body = res.json();
    expect(body).toMatchObject({
      title: 'Bad Request',
      status: 400,
      instance: '/v1/points',
      code: 'player.external_id_missing',
    });
    expect(body.traceId).toMatch(/^[0-9a-f]{32}$|^$/);
    expect(body.errors[0]).toMatchObject({ code: 'player.external_id_missing', meta: { path: 'PlayerId' } });
  });

  it('names a too long player id and lists every broken rule', async () => {
    const res = await app().inject({
      method: 'POST',
      url: '/v1/points/adjustments',
      payload: { playerId: 'x'.repeat(201), amount: 1.5 },
    });
    expect(res.statusCode).toBe(400);
    const codes = res.json().errors.map((e: { code: string }) => e.code);
    expect(codes).toEqual(['player.external_id_too_long', 'validation.amount']);
    expect(res.json().code).toBe('player.external_id_too_long');
  });

  it('refuses malformed JSON, a wrong content type, an oversized body and prototype keys precisely', async () => {
    const a = app();
    const cases = [
      { payload: '{"playerId": ', type: 'application/json', reason: 'malformed_json' },
      { payload: 'playerId=1', type: 'text/plain', reason: 'unsupported_media_type' },
      {
        payload: JSON.stringify({ playerId: 'p', amount: 1, pad: 'x'.repeat(2000) }),
        type: 'application/json',
        reason: 'body_too_large',
      },
      {
        payload: '{"playerId":"p","amount":1,"__proto__":{"x":1}}',
        type: 'application/json',
        reason: 'forbidden_key',
      },
    ];
    for (const c of cases) {
      const res = await a.inject({
        method: 'POST',
        url: '/v1/points/adjustments',
        payload: c.payload,
        headers: { 'content-type': c.type },
      });
      expect(res.statusCode, c.reason).toBe(400);
      expect(res.json().code).toBe('validation.request');
      expect(res.json().errors[0].meta.reason).toBe(c.reason);
    }
  });

  it('passes a domain problem through with its status, code and message as detail', async () => {
    const res = await app().inject({ method: 'GET', url: '/v1/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'points.insufficient_balance',
      detail: 'Not enough points.',
      title: 'Conflict',
    });
  });

  it('hides unexpected errors behind server.unexpected', async () => {
    const res = await app().inject({ method: 'GET', url: '/v1/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('server.unexpected');
    expect(res.body).not.toContain('secret internal detail');
  });

  it('answers unknown routes with a problem document', async () => {
    const res = await app().inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('route.not_found');
  });
});

describe('text that cannot be stored', () => {
  const refusal = (res: { statusCode: number; json(): unknown }) => {
    const body = res.json() as {
      code: string;
      errors: { code: string; meta: { path: string; reason: string } }[];
    };
    return {
      status: res.statusCode,
      code: body.code,
      places: body.errors.map((e) => [e.code, e.meta.path, e.meta.reason]),
    };
  };

  it('is refused in a body, nested or in a key, naming each place', async () => {
    const res = await app().inject({
      method: 'POST',
      url: '/v1/shop/crown',
      headers: { 'content-type': 'application/json' },
      payload: '{"playerId":"p\\ud800","nested":{"list":["ok","bad\\u0000"]},"keys":{"k\\udc00":1}}',
    });
    expect(refusal(res)).toEqual({
      status: 400,
      code: 'validation.player_id',
      places: [
        ['validation.player_id', 'playerId', 'unrepresentable_text'],
        ['validation.nested', 'nested.list.1', 'unrepresentable_text'],
        ['validation.keys', 'keys', 'unrepresentable_text'],
      ],
    });
  });

  it('is refused in path and query parameters', async () => {
    const a = app();
    const query = await a.inject({ method: 'GET', url: '/v1/points?PlayerId=a%00b' });
    expect(refusal(query)).toEqual({
      status: 400,
      code: 'validation.player_id',
      places: [['validation.player_id', 'PlayerId', 'unrepresentable_text']],
    });
    const path = await a.inject({
      method: 'POST',
      url: '/v1/shop/crown%00',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(refusal(path)).toEqual({
      status: 400,
      code: 'validation.item_key',
      places: [['validation.item_key', 'itemKey', 'unrepresentable_text']],
    });
  });

  it('is refused in the player context an owning service receives', async () => {
    const res = await app().inject({
      method: 'POST',
      url: '/v1/shop/crown',
      headers: {
        'content-type': 'application/json',
        [INTERNAL_HEADERS.player]: encodePlayerContext({
          id: 'p\udfff',
          timeZone: null,
          attributes: {},
          isNew: false,
        }),
      },
      payload: '{}',
    });
    expect(refusal(res)).toEqual({
      status: 400,
      code: 'validation.id',
      places: [['validation.id', 'id', 'unrepresentable_text']],
    });
  });

  it('refuses a body that is not UTF-8 rather than reading its bytes as U+FFFD', async () => {
    const res = await app().inject({
      method: 'POST',
      url: '/v1/shop/crown',
      headers: { 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from('{"key":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    });
    expect(refusal(res)).toEqual({
      status: 400,
      code: 'validation.request',
      places: [['validation.request', '', 'malformed_json']],
    });
  });
});

describe('paths the router cannot take', () => {
  it('answers bad percent-encoding and overlong parameters with a problem document, echoing nothing', async () => {
    const a = app();
    for (const [url, reason] of [
      ['/v1/shop/%E0%A4%A', 'malformed_path'],
      ['/v1/shop/%ED%A0%80', 'malformed_path'],
      ['/v1/shop/%C0%80', 'malformed_path'],
      [`/v1/shop/${'k'.repeat(501)}`, 'path_parameter_too_long'],
    ] as const) {
      const res = await a.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      const body = res.json();
      expect(body).toMatchObject({ title: 'Bad Request', status: 400, code: 'validation.request' });
      expect(body.errors[0].meta.reason).toBe(reason);
      expect(body.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(JSON.stringify(body.errors) + body.detail).not.toMatch(/FST_|\/v1\/shop/);
    }
  });
});
