import { createLogger } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { internalHeaders, randomEnvironment } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';

// The pool never connects: these routes answer without the database.
const pool = createPool({ url: 'postgres://nobody@127.0.0.1:1/none', schema: 'rules' });
const app = buildApp({ log: createLogger('rules-test', 'silent'), pool });
afterAll(() => pool.end());

const env = randomEnvironment();
const headers = { ...internalHeaders(env, { id: 'player-1' }), 'content-type': 'application/json' };

describe('missions', () => {
  it('answers an empty feed that must not be cached', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/missions',
      headers,
      payload: { playerId: 'p' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers mission.not_found for any mission key', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/missions/daily-login',
      headers,
      payload: { playerId: 'p' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'mission.not_found', instance: '/v1/missions/daily-login' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers mission_collection.not_found for any collection key', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/mission-collections/season-1',
      headers,
      payload: { playerId: 'p' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('mission_collection.not_found');
  });

  it('names a missing and a too long player id with their own codes', async () => {
    const missing = await app.inject({ method: 'POST', url: '/v1/missions', headers, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('player.external_id_missing');
    const tooLong = await app.inject({
      method: 'POST',
      url: '/v1/missions/m',
      headers,
      payload: { playerId: 'x'.repeat(201) },
    });
    expect(tooLong.json().code).toBe('player.external_id_too_long');
  });

  it('validates the body before looking for the mission', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/mission-collections/c',
      headers,
      payload: { playerId: 'p', languageCode: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation.language_code');
  });

  it('refuses a request without the environment the gateway resolved', async () => {
    const res = await app.inject({
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
  it('lists no streaks', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/streaks?PlayerId=p&LanguageCode=en', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('answers streak.not_found for any streak key', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/streaks/daily?PlayerId=p', headers });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'streak.not_found', instance: '/v1/streaks/daily' });
  });

  it('names the refused query fields', async () => {
    const missing = await app.inject({ method: 'GET', url: '/v1/streaks', headers });
    expect(missing.json().code).toBe('player.external_id_missing');
    const language = await app.inject({
      method: 'GET',
      url: '/v1/streaks/s?PlayerId=p&LanguageCode=1',
      headers,
    });
    expect(language.statusCode).toBe(400);
    expect(language.json().code).toBe('validation.language_code');
  });
});
