import { randomUUID } from 'node:crypto';
import { type AcceptedEvent, topics } from '@engage/contracts';
import { describe, expect, it, vi } from 'vitest';
import {
  decodeRecord,
  encodeRecords,
  parseSchemaHeader,
  SCHEMA_HEADER,
  schemaFingerprint,
  schemaHeaders,
} from '../src/codec.ts';
import { toMessages } from '../src/produce.ts';

const def = topics.eventsAccepted;
const event = (i: number, text = ''): AcceptedEvent => ({
  eventId: randomUUID(),
  organizationId: randomUUID(),
  environmentId: randomUUID(),
  environmentKind: 'Live',
  playerId: `player-${i}`,
  eventKey: 'level_completed',
  occurredAt: '2026-01-01T00:00:00.000Z',
  receivedAt: '2026-01-01T00:00:01.000Z',
  timeZone: i % 2 ? 'Europe/Paris' : null,
  properties: {
    level: { type: 'Number', string: null, number: String(i), boolean: null, dateTime: null },
    note: { type: 'String', string: text, number: null, boolean: null, dateTime: null },
  },
  idempotencyKey: null,
});

describe('encodeRecords', () => {
  it('gives each record the bytes toBuffer gives, across slabs and for records larger than one', () => {
    const records = [
      ...Array.from({ length: 3_000 }, (_, i) => event(i, 'x'.repeat(i % 300))),
      event(3_000, 'y'.repeat(300_000)),
      event(3_001),
    ];
    const encoded = encodeRecords(def, records);
    expect(encoded).toHaveLength(records.length);
    records.forEach((record, i) => {
      expect(encoded[i]!.equals(def.type.toBuffer(record))).toBe(true);
      // Texts over the API's limits test the slabs: the bytes read back, not what a consumer takes.
      expect(def.type.fromBuffer(encoded[i]!)).toEqual(record);
    });
  });

  it("refuses to decode a record holding what the API refuses, as its topic's defectOf says", () => {
    const atLimit = event(1, 'x'.repeat(256));
    const [within, over] = encodeRecords(def, [atLimit, event(2, 'x'.repeat(257))]);
    expect(decodeRecord(def, within!)).toEqual(atLimit);
    expect(() => decodeRecord(def, over!)).toThrow(/what the API refuses: property note/);
  });

  it('asks for memory sized for the records of the call, not a slab of the largest size', () => {
    const requested = vi.spyOn(Buffer, 'allocUnsafe');
    try {
      const records = [event(1, 'x'.repeat(1_000)), event(2), event(3)];
      const encoded = encodeRecords(def, records);
      const bytes = requested.mock.calls.reduce((sum, [size]) => sum + size, 0);
      expect(bytes).toBeGreaterThan(0);
      expect(bytes).toBeLessThanOrEqual(8 * 1024);
      expect(encoded.map((buffer, i) => buffer.equals(def.type.toBuffer(records[i]!)))).toEqual([
        true,
        true,
        true,
      ]);
    } finally {
      requested.mockRestore();
    }
  });
});

describe('the schema header', () => {
  it('is one header naming the schema and its fingerprint on every topic, beside the trace', () => {
    for (const topic of Object.values(topics)) {
      expect(schemaHeaders(topic)).toEqual({
        [SCHEMA_HEADER]: `${topic.base};fingerprint=${schemaFingerprint(topic)}`,
      });
    }
    const [message] = toMessages(def, [event(1)]);
    expect(Object.keys(message!.headers ?? {}).filter((name) => name !== 'traceparent')).toEqual([
      SCHEMA_HEADER,
    ]);
    expect(parseSchemaHeader(message!.headers![SCHEMA_HEADER] as string)).toEqual({
      name: 'events.accepted.v1',
      fingerprint: schemaFingerprint(def),
    });
  });

  it('parses as a name with parameters, whatever their case and spacing', () => {
    expect(parseSchemaHeader(Buffer.from('events.accepted.v1;fingerprint=0123456789abcdef'))).toEqual({
      name: 'events.accepted.v1',
      fingerprint: '0123456789abcdef',
    });
    expect(parseSchemaHeader('points.journal.v1 ; other=x; Fingerprint = ab12')).toEqual({
      name: 'points.journal.v1',
      fingerprint: 'ab12',
    });
    expect(parseSchemaHeader('events.accepted.v1')).toEqual({
      name: 'events.accepted.v1',
      fingerprint: undefined,
    });
    expect(parseSchemaHeader(undefined)).toBeUndefined();
    expect(parseSchemaHeader(';fingerprint=ab')).toBeUndefined();
  });
});

describe('decodeRecord and text the API refuses', () => {
  const decode = (record: AcceptedEvent) => () => decodeRecord(def, encodeRecords(def, [record])[0]!);

  it('refuses a record whose text held an unpaired surrogate, in any text field or key', () => {
    for (const record of [
      { ...event(1), playerId: 'lone\ud800player' },
      event(2, 'note \udc00'),
      { ...event(3), properties: { 'bad\ud83d': event(3).properties.note! } },
    ]) {
      expect(decode(record), JSON.stringify(record.playerId)).toThrow(/not UTF-8/);
    }
  });

  it('keeps U+FFFD a writer sent as such, and every other character', () => {
    const record = { ...event(4, 'kept \ufffd \u{1F600}'), playerId: '\ufffd\ufffd' };
    expect(decode(record)()).toEqual(record);
  });
});
