import { MAX_PUBLIC_URL_BYTES, ProblemDocumentSchema } from '@engage/contracts';
import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import { startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import { createTenant } from '@engage/testkit/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_SECTION } from './support/every-section.ts';

/**
 * The contract's limits at the edges, through the four services as processes: lengths counted in
 * characters on every endpoint, a leaderboard read as long as the contract allows, and bodies
 * over the limit answered with their problem, never with a reset connection.
 */

const emoji = '\u{1F600}';
/** A player id at the contract's limit, every character outside the BMP (two UTF-16 units). */
const longestId = (salt: string) => `${salt}${emoji.repeat(200 - [...salt].length)}`;

const DEFINITION: EnvironmentFileInput = {
  discovery: false,
  events: [{ key: 'level_completed', properties: { level: { type: 'number' }, name: { type: 'string' } } }],
  playerAttributes: [{ key: 'tier', type: 'string' }],
  ...EVERY_SECTION,
};

let stack: TestStack;
let apiKey: string;

beforeAll(async () => {
  stack = await startStack();
  apiKey = (await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: DEFINITION })).sandbox
    .apiKey;
}, 120_000);
afterAll(() => stack?.stop());

const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
  const res = await fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const q = encodeURIComponent;

/** Every endpoint that names a player, with the player (and any key or text) given. */
const endpoints = (playerId: string): [string, 'GET' | 'POST', string, unknown][] => [
  ['missions feed', 'POST', '/v1/missions', { playerId }],
  ['one mission', 'POST', '/v1/missions/three-levels', { playerId }],
  ['mission collection', 'POST', '/v1/mission-collections/season', { playerId }],
  ['mission acceptance', 'POST', '/v1/missions/opt-in/accept', { playerId }],
  ['marketplace items', 'GET', `/v1/marketplace-items?PlayerId=${q(playerId)}`, undefined],
  ['one marketplace item', 'GET', `/v1/marketplace-items/crown?PlayerId=${q(playerId)}`, undefined],
  ['marketplace collection', 'GET', `/v1/marketplace-collections/royal?PlayerId=${q(playerId)}`, undefined],
  ['points', 'GET', `/v1/points?PlayerId=${q(playerId)}`, undefined],
  ['player items', 'GET', `/v1/player-items?PlayerId=${q(playerId)}`, undefined],
  ['leaderboard', 'GET', `/v1/leaderboards/levels?PlayerId=${q(playerId)}`, undefined],
  ['streaks', 'GET', `/v1/streaks?PlayerId=${q(playerId)}`, undefined],
  ['one streak', 'GET', `/v1/streaks/daily-play?PlayerId=${q(playerId)}`, undefined],
  [
    'player attributes',
    'POST',
    '/v1/players/attributes',
    { playerId, attributes: { tier: emoji.repeat(2_000) } },
  ],
];

describe('lengths counted in characters', () => {
  it.each(endpoints(longestId('a')))(
    'takes a player id of 200 astral characters: %s',
    async (_, method, path, body) => {
      const res = await call(method, path, body);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    },
  );

  it.each(endpoints(emoji.repeat(201)))(
    'refuses 201 characters as too long: %s',
    async (_, method, path, body) => {
      const res = await call(method, path, body);
      expect([res.status, res.body.code]).toEqual([400, 'player.external_id_too_long']);
    },
  );

  it('keeps points, keys and reasons of astral characters at their limits, and refuses one more', async () => {
    const playerId = longestId('b');
    const credit = {
      playerId,
      amount: 5,
      reason: emoji.repeat(500),
      idempotencyKey: emoji.repeat(200),
    };
    const credited = await call('POST', '/v1/points/adjustments', credit);
    expect([credited.status, credited.body.balance]).toEqual([200, 5]);
    // The same key replays, so the balance moves once.
    expect((await call('POST', '/v1/points/adjustments', credit)).body).toEqual(credited.body);
    expect((await call('GET', `/v1/points?PlayerId=${q(playerId)}`)).body).toMatchObject({
      playerId,
      balance: 5,
    });

    const refused = await call('POST', '/v1/points/adjustments', {
      playerId,
      amount: 5,
      reason: emoji.repeat(501),
      idempotencyKey: emoji.repeat(201),
    });
    expect(refused.status).toBe(400);
    expect((refused.body.errors as { code: string }[]).map((e) => e.code)).toEqual([
      'points_adjustment.reason_too_long',
      'validation.idempotency_key',
    ]);

    // Keys are the player's, whatever the write: the purchase takes one of its own.
    const purchase = { playerId, idempotencyKey: `p${emoji.repeat(199)}` };
    const bought = await call('POST', '/v1/marketplace-items/crown/purchases', purchase);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect((await call('POST', '/v1/marketplace-items/crown/purchases', purchase)).body).toEqual(bought.body);
    expect((await call('GET', `/v1/points?PlayerId=${q(playerId)}`)).body).toMatchObject({ balance: 4 });
    const overKey = await call('POST', '/v1/marketplace-items/crown/purchases', {
      playerId,
      idempotencyKey: emoji.repeat(201),
    });
    expect([overKey.status, overKey.body.code]).toEqual([400, 'validation.idempotency_key']);
  });

  it('accepts events whose id, key and text are at their limits, and refuses each one more', async () => {
    const item = { eventKey: 'level_completed', properties: { level: 1 } };
    const res = await call('POST', '/v1/events', {
      events: [
        {
          ...item,
          playerId: longestId('c'),
          idempotencyKey: emoji.repeat(200),
          properties: { level: 1, name: emoji.repeat(256) },
        },
        { ...item, playerId: emoji.repeat(201) },
        { ...item, playerId: 'c', idempotencyKey: emoji.repeat(201) },
        { ...item, playerId: 'c', properties: { level: 1, name: emoji.repeat(257) } },
      ],
    });
    expect(res.status).toBe(200);
    const results = res.body.results as { accepted: boolean; errors: { code: string }[] }[];
    expect(results.map((r) => r.errors.map((e) => e.code))).toEqual([
      [],
      ['player.external_id_too_long'],
      ['validation.idempotency_key'],
      ['event.property_value_out_of_range'],
    ]);
  });

  it('refuses an attribute text of 2,001 astral characters', async () => {
    const res = await call('POST', '/v1/players/attributes', {
      playerId: longestId('d'),
      attributes: { tier: emoji.repeat(2_001) },
    });
    expect([res.status, res.body.code]).toEqual([400, 'player_attribute.value_too_long']);
  });
});

describe('a leaderboard read as long as the contract allows', () => {
  const named = Array.from({ length: 100 }, (_, i) => longestId(`n${i}`));
  const read = (ids: string[], extra = '') =>
    `/v1/leaderboards/levels?PlayerId=${q(named[0]!)}${ids.map((id) => `&PlayerIds=${q(id)}`).join('')}${extra}`;

  it('passes through the gateway: 100 ids of 200 astral characters', async () => {
    const path = read(named);
    expect(path.length).toBeGreaterThan(200_000);
    const res = await call('GET', path);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.named).toEqual(expect.any(Array));
  });

  it('refuses a 101st id precisely', async () => {
    const res = await call('GET', read([...named, longestId('extra')]));
    expect([res.status, res.body.code, res.body.instance]).toEqual([
      400,
      'validation.player_ids',
      '/v1/leaderboards/levels',
    ]);
  });

  it('refuses a longer target with a problem whose instance is the path', async () => {
    const path = read(named, `&Padding=${'a'.repeat(10_000)}`);
    expect(path.length).toBeGreaterThan(MAX_PUBLIC_URL_BYTES);
    const res = await call('GET', path);
    expect(res.status).toBe(400);
    expect(ProblemDocumentSchema.parse(res.body)).toMatchObject({
      code: 'validation.request',
      instance: '/v1/leaderboards/levels',
      errors: [{ meta: { reason: 'url_too_long' } }],
    });
  });

  it('answers a head far over the limit with a problem document, not a reset connection', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await call('GET', read(named, `&Padding=${'a'.repeat(2 * MAX_PUBLIC_URL_BYTES)}`));
      expect([res.status, res.body.code]).toEqual([400, 'validation.request']);
      expect(ProblemDocumentSchema.parse(res.body).errors[0]?.meta.reason).toBe('headers_too_large');
    }
  });
});

describe('a body over the 8 MiB events limit', () => {
  const LIMIT = 8 * 1024 * 1024;
  const oversized = Buffer.alloc(LIMIT + 64 * 1024, 0x20);
  oversized.write('{"events":[', 0);

  it.each([
    ['with its length announced', false],
    ['streamed in chunks', true],
  ])('is answered event_batch.too_large every time: %s', async (_, streamed) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const res = await fetch(`${stack.gatewayUrl}/v1/events`, {
        method: 'POST',
        headers: { authorization: apiKey, 'content-type': 'application/json' },
        body: streamed ? inChunks(oversized) : oversized,
        duplex: 'half',
      });
      const document = ProblemDocumentSchema.parse(await res.json());
      expect([res.status, document.code, document.instance]).toEqual([
        400,
        'event_batch.too_large',
        '/v1/events',
      ]);
    }
  });
});

/** The body as a stream: the client sends it chunked, without announcing its length. */
function inChunks(body: Buffer): ReadableStream<Uint8Array> {
  const size = 64 * 1024;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.subarray(offset, offset + size));
      offset += size;
    },
  });
}
