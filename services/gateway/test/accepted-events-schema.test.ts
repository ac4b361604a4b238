import { readdirSync, readFileSync } from 'node:fs';
import { type AcceptedEvent, logicalTypes, topics } from '@engage/contracts';
import avro from 'avsc';
import { describe, expect, it } from 'vitest';

/**
 * events.accepted.v1 is a public contract for analysts. Every version ever published is kept in
 * test/fixtures/events.accepted.v1/<n>.avsc; the schema in the repo must stay backward compatible
 * with each of them (a consumer on the current schema reads every record written before), and a new
 * version is added there when the schema changes.
 */
const fixtures = new URL('./fixtures/events.accepted.v1/', import.meta.url);
const published = readdirSync(fixtures)
  .filter((name) => name.endsWith('.avsc'))
  .map((name) => ({
    name,
    type: avro.Type.forSchema(JSON.parse(readFileSync(new URL(name, fixtures), 'utf8')), { logicalTypes }),
  }));

const sample: AcceptedEvent = {
  eventId: '8c6f0a52-34a7-4cb8-9b1c-0d0f1b0b8d11',
  organizationId: '0b9b4d7e-3f1c-4a6e-9a51-36f1b8d2c001',
  environmentId: '6f1c8a0e-2d4b-4b7a-8f3e-5a9c1d2e3f40',
  environmentKind: 'Live',
  playerId: 'player-1',
  eventKey: 'level_completed',
  occurredAt: '2026-11-21T10:00:00.000Z',
  receivedAt: '2026-11-21T10:00:01.000Z',
  timeZone: 'Europe/Paris',
  idempotencyKey: 'k-1',
  properties: {
    score: {
      type: 'Number',
      string: null,
      number: '-12345678901234567890.12345678',
      boolean: null,
      dateTime: null,
    },
    name: { type: 'String', string: 'Ann', number: null, boolean: null, dateTime: null },
  },
};

describe('events.accepted.v1 schema', () => {
  it('has at least one published version on record', () => {
    expect(published.map((p) => p.name)).toContain('1.avsc');
  });

  for (const { name, type } of published) {
    it(`reads records written with published version ${name}`, () => {
      const resolver = topics.eventsAccepted.type.createResolver(type);
      const decoded = topics.eventsAccepted.type.fromBuffer(type.toBuffer(sample), resolver);
      expect(decoded).toMatchObject({ eventId: sample.eventId, properties: sample.properties });
    });
  }

  it('keeps decimals exact to the last digit at the widest size', () => {
    const buffer = topics.eventsAccepted.type.toBuffer(sample);
    expect(topics.eventsAccepted.type.fromBuffer(buffer).properties.score.number).toBe(
      '-12345678901234567890.12345678',
    );
  });
});
