import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, startGateway } from './support.ts';

let gateway: InProcessGateway;
let tenant: Tenant;

beforeAll(async () => {
  gateway = await startGateway();
  tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      playerAttributes: [
        { key: 'tier', type: 'string' },
        { key: 'level', type: 'number' },
        { key: 'vip', type: 'boolean' },
        { key: 'joinedAt', type: 'dateTime' },
        { key: 'legacy', type: 'string', active: false },
      ],
    },
  });
});
afterAll(() => gateway?.close());

const setAttributes = (payload: unknown) =>
  gateway.app.inject({
    method: 'POST',
    url: '/v1/players/attributes',
    headers: bearer(tenant.live.apiKey),
    payload: payload as object,
  });

async function storedPlayer(playerId: string) {
  const { rows } = await gateway.pool.query(
    'SELECT attributes, time_zone FROM players WHERE environment_id = $1 AND external_id = $2',
    [tenant.live.environmentId, playerId],
  );
  return rows[0];
}

describe('POST /v1/players/attributes', () => {
  it('creates the player on first sight and sets typed attributes; null removes one', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const res = await setAttributes({
      playerId,
      timeZone: 'Europe/Paris',
      attributes: { tier: 'gold', level: 12.5, vip: true, joinedAt: '2026-01-01T10:00:00+01:00' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      playerId,
      timeZone: 'Europe/Paris',
      attributes: { tier: 'gold', level: 12.5, vip: true, joinedAt: '2026-01-01T09:00:00.000Z' },
    });
    const second = await setAttributes({ playerId, attributes: { vip: null, tier: 'silver' } });
    expect(second.json().attributes).toEqual({
      tier: 'silver',
      level: 12.5,
      joinedAt: '2026-01-01T09:00:00.000Z',
    });
    expect(await storedPlayer(playerId)).toEqual({
      time_zone: 'Europe/Paris',
      attributes: { tier: 'silver', level: 12.5, joinedAt: '2026-01-01T09:00:00.000Z' },
    });
  });

  it('keeps numbers exact from the body to storage and back: 20 digits before the point, 8 after', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const exact = '12345678901234567890.12345678';
    const post = (attributes: string) =>
      gateway.app.inject({
        method: 'POST',
        url: '/v1/players/attributes',
        headers: { ...bearer(tenant.live.apiKey), 'content-type': 'application/json' },
        payload: `{"playerId":"${playerId}","attributes":${attributes}}`,
      });
    const stored = async () =>
      (
        await gateway.pool.query(
          `SELECT attributes->>'level' AS level, jsonb_typeof(attributes->'level') AS kind FROM players
           WHERE environment_id = $1 AND external_id = $2`,
          [tenant.live.environmentId, playerId],
        )
      ).rows[0];

    const res = await post(`{"level":${exact}}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`"level":${exact}`);
    expect(await stored()).toEqual({ level: exact, kind: 'number' });
    // Read back from storage (not from the request) when another attribute is written.
    const again = await post('{"tier":"gold"}');
    expect(again.body).toContain(`"level":${exact}`);

    for (const wide of ['123456789012345678901', '1.123456789', '1e400', '-99999999999999999999.999999999']) {
      const refused = await post(`{"level":${wide}}`);
      expect([refused.statusCode, refused.json().code], wide).toEqual([
        400,
        'player_attribute.type_mismatch',
      ]);
      expect(refused.json().errors[0].meta).toMatchObject({ attribute: 'level', reason: 'out_of_range' });
    }
    expect(await stored()).toEqual({ level: exact, kind: 'number' });

    for (const [sent, kept] of [
      ['-0.50', '-0.5'],
      ['25e-8', '0.00000025'],
      ['7', '7'],
    ]) {
      expect((await post(`{"level":${sent}}`)).body).toContain(`"level":${kept}`);
      expect((await stored()).level).toBe(kept);
    }
  });

  it('is all or nothing: one bad key writes none, every problem is listed, the first names the status', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    await setAttributes({ playerId, attributes: { tier: 'gold' } });
    const res = await setAttributes({
      playerId,
      attributes: { tier: 'platinum', unknown: 1, legacy: 'x', level: 'high', vip: 'yes', joinedAt: 'soon' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors.map((e: { code: string }) => e.code)).toEqual([
      'player_attribute.not_found',
      'player_attribute.inactive',
      'player_attribute.type_mismatch',
      'player_attribute.type_mismatch',
      'player_attribute.type_mismatch',
    ]);
    expect((await storedPlayer(playerId)).attributes).toEqual({ tier: 'gold' });
  });

  it('answers each code with its status', async () => {
    const playerId = `p-${crypto.randomUUID()}`;
    const cases: [unknown, number, string][] = [
      [{ playerId, attributes: { legacy: 'x' } }, 409, 'player_attribute.inactive'],
      [{ playerId, attributes: { tier: 'x'.repeat(2001) } }, 400, 'player_attribute.value_too_long'],
      [{ playerId, attributes: {} }, 400, 'player_attribute.attributes_missing'],
      [{ playerId }, 400, 'player_attribute.attributes_missing'],
      [{ playerId, attributes: [] }, 400, 'validation.attributes'],
      [{ playerId, attributes: { tier: 'x' }, timeZone: '+02:00' }, 400, 'player.time_zone_invalid'],
      [{ attributes: { tier: 'x' } }, 400, 'player.external_id_missing'],
      [{ playerId: 'x'.repeat(201), attributes: { tier: 'x' } }, 400, 'player.external_id_too_long'],
      [{ playerId, attributes: { __proto__: 'x', constructor: 'y' } }, 404, 'player_attribute.not_found'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await gateway.app.inject({
        method: 'POST',
        url: '/v1/players/attributes',
        headers: { ...bearer(tenant.live.apiKey), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect([res.statusCode, res.json().code]).toEqual([status, code]);
    }
    expect(await storedPlayer(playerId)).toBeUndefined();
    const proto = await gateway.app.inject({
      method: 'POST',
      url: '/v1/players/attributes',
      headers: { ...bearer(tenant.live.apiKey), 'content-type': 'application/json' },
      payload: `{"playerId":"${playerId}","attributes":{"__proto__":{"tier":"x"}}}`,
    });
    expect([proto.statusCode, proto.json().code]).toEqual([404, 'player_attribute.not_found']);
  });
});
