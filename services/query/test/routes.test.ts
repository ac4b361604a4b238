import { MAX_PLAYER_ID_LENGTH } from '@engage/contracts';
import { createLogger } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { injectAsGateway, internalHeaders, randomEnvironment, testVerifier } from '@engage/testkit';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';

// Neither client ever connects: these routes answer without Postgres or Redis.
const pool = createPool({ url: 'postgres://nobody@127.0.0.1:1/none', schema: 'query' });
const redis = new Redis({ lazyConnect: true });
// No board is defined: every well-formed read ends in the one 404.
const definitions = { boards: async () => [], board: async () => undefined, forget: () => {} };
const app = buildApp({
  log: createLogger('query-test', 'silent'),
  pool,
  redis,
  definitions,
  verifier: testVerifier(),
});
afterAll(async () => {
  redis.disconnect();
  await pool.end();
});

const headers = internalHeaders(randomEnvironment(), { id: 'me' });
const read = (query: string) =>
  injectAsGateway(app, { method: 'GET', url: `/v1/leaderboards/weekly?${query}`, headers });

describe('GET /v1/leaderboards/{leaderboardKey}', () => {
  it('answers leaderboard.not_found for a well-formed request', async () => {
    const res = await read(
      'PlayerId=me&Top=10&Around=25&Previous=true&PlayerIds=a&PlayerIds=b&LanguageCode=en',
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'leaderboard.not_found', instance: '/v1/leaderboards/weekly' });
  });

  it('refuses more than 25 neighbours with validation.around', async () => {
    const res = await read('PlayerId=me&Around=26');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation.around');
  });

  it('refuses more than 100 named players with validation.player_ids', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `PlayerIds=p${i}`).join('&');
    const res = await read(`PlayerId=me&${ids}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation.player_ids');
    const hundred = Array.from({ length: 100 }, (_, i) => `PlayerIds=p${i}`).join('&');
    expect((await read(`PlayerId=me&${hundred}`)).statusCode).toBe(404);
  });

  it('refuses a named player id that is not a valid player id, alone or among others', async () => {
    const tooLong = 'x'.repeat(MAX_PLAYER_ID_LENGTH + 1);
    for (const query of [
      `PlayerId=me&PlayerIds=${tooLong}`,
      `PlayerId=me&PlayerIds=a&PlayerIds=${tooLong}`,
    ]) {
      const res = await read(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation.player_ids');
    }
  });

  it('refuses a negative or non-integer Top with validation.top', async () => {
    expect((await read('PlayerId=me&Top=-1')).json().code).toBe('validation.top');
    expect((await read('PlayerId=me&Top=1.5')).json().code).toBe('validation.top');
  });

  it('refuses a Previous that is not true or false', async () => {
    expect((await read('PlayerId=me&Previous=yes')).json().code).toBe('validation.previous');
  });

  it('lists every broken rule, the missing player first', async () => {
    const res = await read('Around=99&Top=-1');
    const codes = res.json().errors.map((e: { code: string }) => e.code);
    expect(res.json().code).toBe('player.external_id_missing');
    expect(codes).toEqual(expect.arrayContaining(['validation.around', 'validation.top']));
  });
});
