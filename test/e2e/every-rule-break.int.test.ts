import { VALIDATION_DETAIL } from '@engage/contracts';
import { startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import { createTenant } from '@engage/testkit/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * "When a request breaks several rules, all are in errors": a request without a player id still
 * lists every other rule it breaks, at every endpoint that names a player, in the order of the
 * request's fields (path, then query or body, each in the order the OpenAPI document lists them).
 */
describe('a request breaking several rules lists them all', () => {
  let stack: TestStack;
  let apiKey: string;

  beforeAll(async () => {
    stack = await startStack();
    apiKey = (await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN)).sandbox.apiKey;
  }, 120_000);
  afterAll(() => stack?.stop());

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { authorization: apiKey, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const problem = (await res.json()) as { code: string; detail: string; errors: { code: string }[] };
    const detail = problem.code.startsWith('validation.') ? { detail: problem.detail } : {};
    return { status: res.status, code: problem.code, errors: problem.errors.map((e) => e.code), ...detail };
  };

  const tooLong = (n: number) => 'x'.repeat(n);
  const missing = 'player.external_id_missing';

  it.each([
    [
      'an adjustment',
      '/v1/points/adjustments',
      { amount: 0, reason: tooLong(501) },
      [missing, 'points_adjustment.amount_zero', 'points_adjustment.reason_too_long'],
    ],
    [
      'a purchase',
      '/v1/marketplace-items/crown/purchases',
      { idempotencyKey: tooLong(201), expectedPriceInPoints: -1 },
      [missing, 'validation.idempotency_key', 'validation.expected_price_in_points'],
    ],
    [
      'an adjustment with a null player id',
      '/v1/points/adjustments',
      { playerId: null, amount: 0 },
      [missing, 'points_adjustment.amount_zero'],
    ],
    ['the missions feed', '/v1/missions', { languageCode: 'x' }, [missing, 'validation.language_code']],
    ['the missions feed, null player id', '/v1/missions', { playerId: null }, [missing]],
    ['a mission', '/v1/missions/m', { languageCode: 'x' }, [missing, 'validation.language_code']],
    [
      'a mission collection',
      '/v1/mission-collections/c',
      { languageCode: 'x' },
      [missing, 'validation.language_code'],
    ],
    ['an acceptance', '/v1/missions/m/accept', { languageCode: 'x' }, [missing, 'validation.language_code']],
    [
      'player attributes',
      '/v1/players/attributes',
      { attributes: { undefined_one: 1 }, timeZone: '+02:00' },
      [missing, 'player_attribute.not_found', 'player.time_zone_invalid'],
    ],
  ])('POST: %s', async (_name, path, body, codes) => {
    expect(await call('POST', path, body)).toEqual({ status: 400, code: codes[0], errors: codes });
  });

  it('gives the fixed detail sentence when the first error is validation.*, whatever follows', async () => {
    expect(await call('POST', '/v1/points/adjustments', { playerId: 7, amount: 0 })).toEqual({
      status: 400,
      code: 'validation.player_id',
      errors: ['validation.player_id', 'points_adjustment.amount_zero'],
      detail: VALIDATION_DETAIL,
    });
  });

  it.each([
    ['the shop', '/v1/marketplace-items?Take=-1', [missing, 'validation.take']],
    [
      'a leaderboard',
      '/v1/leaderboards/b?Around=26&Top=-1',
      [missing, 'validation.top', 'validation.around'],
    ],
    ['the streaks', '/v1/streaks?LanguageCode=e_n', [missing, 'validation.language_code']],
    ['the balance', `/v1/points?PlayerId=${tooLong(201)}`, ['player.external_id_too_long']],
  ])('GET: %s', async (_name, path, codes) => {
    expect(await call('GET', path)).toEqual({ status: 400, code: codes[0], errors: codes });
  });
});
