import { createTenant, TEST_ADMIN_TOKEN, type Tenant } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type InProcessGateway, readAcceptedEvents, startGateway } from './support.ts';

let gateway: InProcessGateway;
let tenant: Tenant;

beforeAll(async () => {
  gateway = await startGateway();
  tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: {
      discovery: true,
      events: [{ key: 'known', properties: { level: { type: 'number' as const } } }],
    },
  });
});
afterAll(() => gateway?.close());

const send = (events: unknown[]) =>
  gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: { ...bearer(tenant.live.apiKey), 'content-type': 'application/json' },
    payload: JSON.stringify({ events }),
  });

const storedType = async (eventKey: string, property: string) => {
  const { rows } = await gateway.pool.query<{ type: string }>(
    `SELECT properties -> $3 ->> 'type' AS type FROM event_definitions
     WHERE environment_id = $1 AND event_key = $2`,
    [tenant.live.environmentId, eventKey, property],
  );
  return rows[0]?.type;
};

const values = { number: 7, string: 'seven', boolean: true } as const;

describe('discovery under concurrent first occurrences', () => {
  it('accepts only items of the type that was stored, whichever request stored it', async () => {
    const rounds = Array.from({ length: 6 }, (_, round) => ({
      // A new event, and a new property of an event already defined.
      eventKey: round % 2 === 0 ? `raced_${round}` : 'known',
      property: `p${round}`,
    }));
    for (const { eventKey, property } of rounds) {
      const kinds = ['number', 'string', 'boolean', 'number', 'string', 'boolean'] as const;
      const answers = await Promise.all(
        kinds.map((kind, i) =>
          send([{ eventKey, playerId: `player-${i}`, properties: { [property]: values[kind] } }]),
        ),
      );
      const stored = await storedType(eventKey, property);
      const outcomes = answers.map((answer, i) => {
        expect(answer.statusCode).toBe(200);
        const result = answer.json().results[0];
        return { kind: kinds[i], accepted: result.accepted, code: result.errors[0]?.code };
      });
      for (const outcome of outcomes) {
        expect(outcome).toEqual(
          outcome.kind === stored
            ? { kind: stored, accepted: true, code: undefined }
            : { kind: outcome.kind, accepted: false, code: 'event.property_type_mismatch' },
        );
      }
    }
    const records = await readAcceptedEvents(gateway.topicPrefix, tenant.live.environmentId);
    for (const { eventKey, property } of rounds) {
      const stored = await storedType(eventKey, property);
      const sent = records.filter((r) => r.eventKey === eventKey && r.properties[property]);
      expect(sent.length).toBe(2);
      const wireType = { number: 'Number', string: 'String', boolean: 'Boolean' }[stored!];
      expect(sent.map((r) => r.properties[property]!.type)).toEqual([wireType, wireType]);
    }
  });

  it('checks a batch again against what was stored, so an item of the stored type is accepted', async () => {
    // This replica's cached definitions are loaded; then another replica stores `p` as a string.
    await send([{ eventKey: 'known', playerId: 'a' }]);
    await gateway.pool.query(
      `INSERT INTO event_definitions (environment_id, event_key, properties, discovered)
       VALUES ($1, 'settled', '{"p": {"type": "string", "required": false}}', true)`,
      [tenant.live.environmentId],
    );
    const answer = await send([
      { eventKey: 'settled', playerId: 'b', properties: { p: 1 } },
      { eventKey: 'settled', playerId: 'c', properties: { p: 'text', q: true } },
    ]);
    const results = answer.json().results;
    expect(results.map((r: { accepted: boolean }) => r.accepted)).toEqual([false, true]);
    expect(results[0].errors[0].code).toBe('event.property_type_mismatch');
    expect(await storedType('settled', 'p')).toBe('string');
    expect(await storedType('settled', 'q')).toBe('boolean');
  });
});
