import { createLogger } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { injectAsGateway, internalHeaders, randomEnvironment, testVerifier } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { MarketplaceCatalog } from '../src/application/marketplace-catalog.ts';
import { createWriteQueue } from '../src/application/write-queue.ts';

/** A shop with nothing defined (the real catalog reads Postgres; see shop.int.test.ts). */
const emptyShop: MarketplaceCatalog = {
  listItems: async () => [],
  findItem: async () => undefined,
  findCollection: async () => undefined,
};

// No database is reached by these requests: validation and the empty shop answer before any query.
const pool = createPool({ url: 'postgres://nobody@127.0.0.1:1/none', schema: 'ledger' });
const app = buildApp({
  log: createLogger('ledger-test', 'silent'),
  pool,
  topicPrefix: 'unit.',
  onJournalCommitted: () => {},
  batcher: createWriteQueue(pool, { topicPrefix: 'unit.', maxBatch: 1 }),
  marketplace: emptyShop,
  verifier: testVerifier(),
});
afterAll(() => pool.end());

const headers = internalHeaders(randomEnvironment(), { id: 'p1' });

describe('points routes refuse bad requests before any write', () => {
  it('GET /v1/points without PlayerId is player.external_id_missing', async () => {
    const res = await injectAsGateway(app, { method: 'GET', url: '/v1/points', headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'player.external_id_missing', instance: '/v1/points' });
  });

  it('POST /v1/points/adjustments lists zero and too long together as a problem document', async () => {
    const res = await injectAsGateway(app, {
      method: 'POST',
      url: '/v1/points/adjustments',
      headers,
      payload: { playerId: 'p1', amount: 0, reason: 'r'.repeat(501) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const body = res.json();
    expect(body).toMatchObject({
      status: 400,
      code: 'points_adjustment.amount_zero',
      instance: '/v1/points/adjustments',
    });
    expect(body.detail).toBe(body.errors[0].message);
    expect(body.errors.map((e: { code: string }) => e.code)).toEqual([
      'points_adjustment.amount_zero',
      'points_adjustment.reason_too_long',
    ]);
  });

  it('a non-integer amount is validation.amount with the fixed validation sentence', async () => {
    const res = await injectAsGateway(app, {
      method: 'POST',
      url: '/v1/points/adjustments',
      headers,
      payload: { playerId: 'p1', amount: 2.5 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation.amount',
      detail: 'The request is invalid; each refused field is listed in errors.',
    });
  });
});

describe('shop routes before any listing exists', () => {
  it('lists no items', async () => {
    const res = await injectAsGateway(app, {
      method: 'GET',
      url: '/v1/marketplace-items?PlayerId=p1&Take=5&LanguageCode=pt-BR',
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('validates PlayerId, Take and LanguageCode', async () => {
    const codes = async (query: string) => {
      const res = await injectAsGateway(app, {
        method: 'GET',
        url: `/v1/marketplace-items${query}`,
        headers,
      });
      expect(res.statusCode).toBe(400);
      return res.json().errors.map((e: { code: string }) => e.code);
    };
    expect(await codes('?Take=1')).toEqual(['player.external_id_missing']);
    expect(await codes('?PlayerId=p1&Take=-1')).toEqual(['validation.take']);
    expect(await codes('?PlayerId=p1&Take=abc')).toEqual(['validation.take']);
    expect(await codes('?PlayerId=p1&LanguageCode=not_a_tag!')).toEqual(['validation.language_code']);
  });

  it('answers an unknown item with marketplace_item.not_found', async () => {
    const res = await injectAsGateway(app, {
      method: 'GET',
      url: '/v1/marketplace-items/sword?PlayerId=p1',
      headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'marketplace_item.not_found',
      instance: '/v1/marketplace-items/sword',
    });
  });

  it('answers an unknown collection with marketplace_collection.not_found', async () => {
    const res = await injectAsGateway(app, {
      method: 'GET',
      url: '/v1/marketplace-collections/summer?PlayerId=p1',
      headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('marketplace_collection.not_found');
  });

  it('validates a purchase body before anything runs', async () => {
    const bad = await injectAsGateway(app, {
      method: 'POST',
      url: '/v1/marketplace-items/sword/purchases',
      headers,
      payload: { idempotencyKey: 'k'.repeat(201) },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { code: string }) => e.code)).toEqual([
      'player.external_id_missing',
      'validation.idempotency_key',
    ]);
  });

  it('refuses a request the gateway did not forward as project_environment.not_found', async () => {
    const res = await injectAsGateway(app, { method: 'GET', url: '/v1/marketplace-items?PlayerId=p1' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('project_environment.not_found');
  });
});
