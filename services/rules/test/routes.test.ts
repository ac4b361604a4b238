import { createLogger } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { injectAsGateway, internalHeaders, randomEnvironment, testVerifier } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { RulesCache } from '../src/application/rules-cache.ts';

// The pool never connects: these requests are refused before anything is read.
const pool = createPool({ url: 'postgres://nobody@127.0.0.1:1/none', schema: 'rules' });
const app = buildApp({
  log: createLogger('rules-test', 'silent'),
  pool,
  rules: new RulesCache(),
  topicPrefix: 'unit.',
  onOutbox: () => {},
  verifier: testVerifier(),
});
afterAll(() => pool.end());

const env = randomEnvironment();
const headers = { ...internalHeaders(env, { id: 'player-1' }), 'content-type': 'application/json' };

describe('missions', () => {
  it('refuses an acceptance without a player id', async () => {
    const res = await injectAsGateway(app, {
      method: 'POST',
      url: '/v1/missions/m/accept',
      headers,
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'player.external_id_missing',
      instance: '/v1/missions/m/accept',
    });
  });

  it('names a missing and a too long player id with their own codes', async () => {
    const missing = await injectAsGateway(app, { method: 'POST', url: '/v1/missions', headers, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('player.external_id_missing');
    const tooLong = await injectAsGateway(app, {
      method: 'POST',
      url: '/v1/missions/m',
      headers,
      payload: { playerId: 'x'.repeat(201) },
    });
    expect(tooLong.json().code).toBe('player.external_id_too_long');
  });

  it('validates the body before looking for the mission', async () => {
    const res = await injectAsGateway(app, {
      method: 'POST',
      url: '/v1/mission-collections/c',
      headers,
      payload: { playerId: 'p', languageCode: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation.language_code');
  });

  it('refuses a request without the environment the gateway resolved', async () => {
    const res = await injectAsGateway(app, {
      method: 'POST',
      url: '/v1/missions',
      headers: { 'content-type': 'application/json' },
      payload: { playerId: 'p' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('project_environment.not_found');
  });
});

describe('streaks', () => {
  it('names the refused query fields', async () => {
    const missing = await injectAsGateway(app, { method: 'GET', url: '/v1/streaks', headers });
    expect(missing.json().code).toBe('player.external_id_missing');
    const language = await injectAsGateway(app, {
      method: 'GET',
      url: '/v1/streaks/s?PlayerId=p&LanguageCode=1',
      headers,
    });
    expect(language.statusCode).toBe(400);
    expect(language.json().code).toBe('validation.language_code');
  });
});
