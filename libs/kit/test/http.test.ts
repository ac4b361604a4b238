import { PlayerBodySchema, PlayerQuerySchema } from '@engage/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp, createLogger, problem } from '../src/index.ts';

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
    throw problem(409, 'points.insufficient_balance', 'Not enough points.');
  });
  a.get('/v1/boom', async () => {
    throw new Error('secret internal detail');
  });
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
