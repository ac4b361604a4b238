import { randomUUID } from 'node:crypto';
import { type AcceptedEvent, topics } from '@engage/contracts';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecords } from '../src/codec.ts';

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
      expect(decodeRecord(def, encoded[i]!)).toEqual(record);
    });
  });
});
