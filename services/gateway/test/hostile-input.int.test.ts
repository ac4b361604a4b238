import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, readAcceptedEvents, startGateway } from './support.ts';

let gateway: InProcessGateway;
let tenant: Tenant;
const accepted = new Set<string>();

beforeAll(async () => {
  gateway = await startGateway();
  tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      discovery: false,
      events: [{ key: 'ping', properties: { n: { type: 'number' }, s: { type: 'string' } } }],
    },
  });
});
afterAll(() => gateway?.close());

async function post(body: string) {
  const res = await gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { ...bearer(tenant.live.apiKey), 'content-type': 'application/json' },
    payload: body,
  });
  const json = res.json();
  for (const r of json.results ?? []) if (r.accepted) accepted.add(r.eventId);
  return { status: res.statusCode, json };
}

const item = (fields: string) => `{"events":[${fields}]}`;
const codesOf = (json: { results: { errors: { code: string }[] }[] }) =>
  json.results.map((r) => r.errors.map((e) => e.code));

describe('hostile input to POST /v1/events', () => {
  it('answers malformed and oversized bodies with their batch code, never 5xx', async () => {
    const nested = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const cases: [string, number, string][] = [
      ['{"events":[', 400, 'validation.request'],
      ['{"events":[{"eventKey":"ping","playerId":"p"}]', 400, 'validation.request'],
      ['[]', 400, 'validation.request'],
      ['"events"', 400, 'validation.request'],
      ['null', 400, 'validation.request'],
      ['{"events":"all"}', 400, 'validation.events'],
      ['{"events":null}', 400, 'validation.events'],
      ['{"events":[]}', 400, 'event_batch.empty'],
      [`{"events":${nested}}`, 400, 'validation.request'],
      [item('{"eventKey":"ping","playerId":"p","properties":{"n":NaN}}'), 400, 'validation.request'],
      [item('{"eventKey":"ping","playerId":"p","properties":{"n":Infinity}}'), 400, 'validation.request'],
      [`{"events":[${Array(1001).fill('{}').join(',')}]}`, 400, 'event_batch.too_large'],
      [
        `{"events":[{"eventKey":"ping","playerId":"${'x'.repeat(9 * 1024 * 1024)}"}]}`,
        400,
        'event_batch.too_large',
      ],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(body);
      expect([res.status, res.json.code], body.slice(0, 60)).toEqual([status, code]);
    }
  });

  it('refuses each hostile item with its precise code and accepts its neighbours', async () => {
    const items = [
      '{"eventKey":"ping","playerId":"ok-1","properties":{"n":12345678901234567890.12345678}}',
      '{"eventKey":"ping","playerId":"p","properties":{"n":123456789012345678901}}',
      '{"eventKey":"ping","playerId":"p","properties":{"n":1.123456789}}',
      '{"eventKey":"ping","playerId":"p","properties":{"n":1e400}}',
      '{"eventKey":"ping","playerId":"p","properties":{"n":"1"}}',
      '{"eventKey":"ping","playerId":"p","properties":{"n":{"deep":{"deeper":[1,2,3]}}}}',
      '{"eventKey":"ping","playerId":"p","properties":{"__proto__":{"n":1}}}',
      '{"eventKey":"ping","playerId":"p","properties":{"constructor":1}}',
      '{"__proto__":{"playerId":"victim"},"eventKey":"ping"}',
      '{"eventKey":"ping","playerId":"p","constructor":{"prototype":{}}}',
      `{"eventKey":"ping","playerId":"${'p'.repeat(201)}"}`,
      `{"eventKey":"ping","playerId":"p","idempotencyKey":"${'k'.repeat(201)}"}`,
      `{"eventKey":"${'e'.repeat(101)}","playerId":"p"}`,
      '{"eventKey":"ping","playerId":"p\\u0000x"}',
      '{"eventKey":"ping","playerId":"p","idempotencyKey":"k\\u0007"}',
      '{"eventKey":"ping","playerId":"p","timeZone":"Europe/Paris\\u0000"}',
      '{"eventKey":"ping","playerId":12}',
      '{"eventKey":["ping"],"playerId":"p"}',
      '{"eventKey":"ping","playerId":"p","properties":[1]}',
      '{"eventKey":"ping","playerId":"p","occurredAt":12}',
      '{"eventKey":"ping","playerId":"p","occurredAt":"1970-01-01T00:00:00Z"}',
      '{"eventKey":"ping","playerId":""}',
      '42',
      '[]',
      'null',
      '{}',
      '{"eventKey":"ping","playerId":"ok-2","properties":{"s":"tab\\tand \\u00e9 \\ud83d\\ude00"}}',
    ];
    const res = await post(`{"events":[${items.join(',')}]}`);
    expect(res.status).toBe(200);
    expect(codesOf(res.json)).toEqual([
      [],
      ['event.property_value_out_of_range'],
      ['event.property_value_out_of_range'],
      ['event.property_value_out_of_range'],
      ['event.property_type_mismatch'],
      ['event.property_type_mismatch'],
      ['event.unknown_property'],
      ['event.unknown_property'],
      ['validation.request', 'player.external_id_missing'],
      ['validation.constructor'],
      ['player.external_id_too_long'],
      ['validation.idempotency_key'],
      ['validation.event_key'],
      ['validation.player_id'],
      ['validation.idempotency_key'],
      ['validation.time_zone'],
      ['validation.player_id'],
      ['validation.event_key'],
      ['validation.properties'],
      ['validation.occurred_at'],
      ['validation.occurred_at'],
      ['player.external_id_missing'],
      ['validation.events'],
      ['validation.events'],
      ['event.item_missing'],
      ['event.item_missing'],
      [],
    ]);
    expect(res.json).toMatchObject({ accepted: 2, rejected: items.length - 2 });

    // Exactly the accepted items were written, nothing of the refused ones.
    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId);
    expect(records.map((r) => r.eventId).sort()).toEqual([...accepted].sort());
    expect(records.map((r) => r.playerId).sort()).toEqual(['ok-1', 'ok-2']);
    expect(records.find((r) => r.playerId === 'ok-1')?.properties.n?.number).toBe(
      '12345678901234567890.12345678',
    );
    const { rows } = await gateway.pool.query(
      'SELECT external_id FROM players WHERE environment_id = $1 ORDER BY external_id',
      [tenant.live.environmentId],
    );
    expect(rows.map((r) => r.external_id)).toEqual(['ok-1', 'ok-2']);
  });

  it('refuses each item holding U+0000 or an unpaired surrogate, naming the place, and accepts the others', async () => {
    const items = [
      '{"eventKey":"ping","playerId":"text-1","properties":{"s":"bad\\u0000name"}}',
      '{"eventKey":"ping","playerId":"text-1","idempotencyKey":"k\\ud800"}',
      '{"eventKey":"ping","playerId":"text-1","idempotencyKey":"k\\udbff"}',
      '{"eventKey":"ping","playerId":"text-1","idempotencyKey":"k\\udc00"}',
      '{"eventKey":"ping","playerId":"text-\\udfff"}',
      '{"eventKey":"ping","playerId":"text-1","properties":{"s\\u0000":"x"}}',
      '{"eventKey":"ping","playerId":"text-1","extra\\ud83d":1}',
      '{"eventKey":"ping","playerId":"text-1","note":["a","\\u0000"]}',
      '{"eventKey":"ping","playerId":"text-1","idempotencyKey":"k\\ufffd","properties":{"s":"\\ud83d\\ude00"}}',
    ];
    const res = await post(`{"events":[${items.join(',')}]}`);
    expect(res.status).toBe(200);
    const refusals = res.json.results.map(
      (r: { errors: { code: string; meta: Record<string, unknown> }[] }) =>
        r.errors.map((e) => [e.code, e.meta.path, e.meta.reason]),
    );
    const text = 'unrepresentable_text';
    expect(refusals).toEqual([
      [['validation.properties', 'properties.s', text]],
      [['validation.idempotency_key', 'idempotencyKey', text]],
      [['validation.idempotency_key', 'idempotencyKey', text]],
      [['validation.idempotency_key', 'idempotencyKey', text]],
      [['validation.player_id', 'playerId', text]],
      [['validation.properties', 'properties', text]],
      [['validation.request', '', text]],
      [['validation.note', 'note.1', text]],
      [],
    ]);
    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId);
    const written = records.filter((r) => r.playerId.startsWith('text-'));
    expect(written.map((r) => r.properties.s?.string)).toEqual(['\u{1F600}']);
  });

  it('refuses such text elsewhere in the batch body with a 400 naming it, writing nothing', async () => {
    const cases: [string, string, string][] = [
      [
        '{"events":[{"eventKey":"ping","playerId":"text-2"}],"source":"a\\u0000"}',
        'validation.source',
        'source',
      ],
      ['{"events":"\\ud800"}', 'validation.events', 'events'],
    ];
    for (const [body, code, path] of cases) {
      const res = await post(body);
      expect([res.status, res.json.code, res.json.errors[0].meta]).toEqual([
        400,
        code,
        { path, reason: 'unrepresentable_text' },
      ]);
    }
  });

  it('accepts 1,000 maximal items of one player (about 6 MB): the body limit fits them and the broker takes them', async () => {
    const maximal = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: { discovery: true },
    });
    const properties = Object.fromEntries(
      Array.from({ length: 16 }, (_, i) => [`p${i}${'x'.repeat(97)}`, 'v'.repeat(256)]),
    );
    const playerId = 'p'.repeat(200);
    const events = Array.from({ length: 1000 }, (_, i) => ({
      eventKey: 'e'.repeat(100),
      playerId,
      idempotencyKey: `${i}`.padEnd(200, 'k'),
      properties,
    }));
    const res = await gateway.app.inject({
      method: 'POST',
      url: '/v1/events',
      headers: { ...bearer(maximal.live.apiKey), 'content-type': 'application/json' },
      payload: JSON.stringify({ events }),
    });
    expect([res.statusCode, res.json().accepted]).toEqual([200, 1000]);
    const records = await readAcceptedEvents(gateway.topicPrefix, maximal.live.environmentId);
    expect(new Set(records.map((r) => r.eventId))).toEqual(
      new Set(res.json().results.map((r: { eventId: string }) => r.eventId)),
    );
  });
});
