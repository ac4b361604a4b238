import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, readAcceptedEvents, startGateway } from './support.ts';

/**
 * Random batches of valid and broken items against the real gateway, Postgres and Kafka. The
 * invariants: results come back in order, one per item; the counts add up; every accepted eventId
 * is on the topic exactly once with the exact decimal sent; nothing refused reaches the topic.
 */

let gateway: InProcessGateway;
let tenant: Tenant;

beforeAll(async () => {
  gateway = await startGateway();
  tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      discovery: false,
      events: [
        {
          key: 'scored',
          properties: { points: { type: 'number', required: true }, mode: { type: 'string' } },
        },
        { key: 'retired', active: false },
      ],
    },
  });
});
afterAll(() => gateway?.close());

/** A JSON number as text, with the canonical decimal the topic must carry (undefined: too wide). */
const decimal = fc
  .record({
    negative: fc.boolean(),
    whole: fc.stringMatching(/^(0|[1-9][0-9]{0,21})$/),
    fraction: fc.stringMatching(/^[0-9]{0,10}$/),
  })
  .map(({ negative, whole, fraction }) => {
    const json = `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
    const integer = whole.replace(/^0+/, '') || '0';
    const places = fraction.replace(/0+$/, '');
    const fits = (integer === '0' ? 0 : integer.length) <= 20 && places.length <= 8;
    const zero = integer === '0' && places === '';
    const canonical = `${negative && !zero ? '-' : ''}${integer}${places ? `.${places}` : ''}`;
    return { json, canonical: fits ? canonical : undefined };
  });

type Item = { json: string; valid: boolean; canonical?: string };

const item: fc.Arbitrary<Item> = fc.oneof(
  fc
    .record({
      player: fc.integer({ min: 0, max: 30 }),
      points: decimal,
      mode: fc.option(fc.string({ maxLength: 20 })),
    })
    .map(({ player, points, mode }) => ({
      json: `{"eventKey":"scored","playerId":"p${player}","properties":{"points":${points.json}${
        mode === null ? '' : `,"mode":${JSON.stringify(mode)}`
      }}}`,
      valid: points.canonical !== undefined,
      ...(points.canonical === undefined ? {} : { canonical: points.canonical }),
    })),
  fc.constantFrom<Item>(
    { json: '{"eventKey":"scored","playerId":"p1"}', valid: false },
    { json: '{"eventKey":"retired","playerId":"p1"}', valid: false },
    { json: '{"eventKey":"nope","playerId":"p1"}', valid: false },
    { json: '{"eventKey":"scored","playerId":"p1","properties":{"points":"1"}}', valid: false },
    { json: '{"eventKey":"scored","playerId":"p1","properties":{"points":1,"extra":1}}', valid: false },
    { json: `{"eventKey":"scored","playerId":"${'x'.repeat(201)}","properties":{"points":1}}`, valid: false },
    { json: '{"eventKey":"scored","properties":{"points":1}}', valid: false },
    { json: '{}', valid: false },
    { json: 'null', valid: false },
    { json: '7', valid: false },
  ),
);

describe('POST /v1/events, property-based', () => {
  it('keeps its invariants for random batches, and the topic holds exactly the accepted items', async () => {
    const accepted = new Map<string, string | undefined>(); // eventId -> canonical points
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 40 }), async (items) => {
        const res = await gateway.app.inject({
          method: 'POST',
          url: '/v1/events',
          headers: { ...bearer(tenant.live.apiKey), 'content-type': 'application/json' },
          payload: `{"events":[${items.map((i) => i.json).join(',')}]}`,
        });
        expect(res.statusCode).toBe(200);
        const body = res.json() as {
          accepted: number;
          rejected: number;
          results: { index: number; accepted: boolean; eventId: string | null; errors: unknown[] }[];
        };
        expect(body.results.map((r) => r.index)).toEqual(items.map((_, i) => i));
        expect(body.accepted + body.rejected).toBe(items.length);
        expect(body.results.filter((r) => r.accepted)).toHaveLength(body.accepted);
        body.results.forEach((r, i) => {
          expect(r.accepted).toBe(items[i]!.valid);
          expect(
            r.accepted
              ? r.errors.length === 0 && r.eventId !== null
              : r.errors.length > 0 && r.eventId === null,
          ).toBe(true);
          if (r.accepted) accepted.set(r.eventId!, items[i]!.canonical);
        });
      }),
      { numRuns: 25 },
    );
    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId);
    expect(records).toHaveLength(accepted.size);
    for (const record of records) {
      expect(accepted.has(record.eventId)).toBe(true);
      expect(record.properties.points?.number).toBe(accepted.get(record.eventId));
    }
  });
});
