import { describe, expect, it } from 'vitest';
import { type AcceptedEvent, acceptedEventDefect } from '../src/index.ts';

const event = (overrides: Partial<AcceptedEvent> = {}): AcceptedEvent => ({
  eventId: '0b9a4c56-5d2e-4a57-a4a1-1c4c7f0e5a11',
  organizationId: '0b9a4c56-5d2e-4a57-a4a1-1c4c7f0e5a12',
  environmentId: '0b9a4c56-5d2e-4a57-a4a1-1c4c7f0e5a13',
  environmentKind: 'Live',
  playerId: 'player-1',
  eventKey: 'level_completed',
  occurredAt: '2026-12-07T00:00:00.000Z',
  receivedAt: '2026-12-07T00:00:00.000Z',
  timeZone: null,
  properties: {},
  idempotencyKey: null,
  ...overrides,
});

const text = (value: string) => ({
  type: 'String' as const,
  string: value,
  number: null,
  boolean: null,
  dateTime: null,
});

describe('an accepted event the API would have refused', () => {
  it('has no defect when every field is one the API takes, at its limits in characters', () => {
    expect(acceptedEventDefect(event())).toBeUndefined();
    expect(
      acceptedEventDefect(
        event({
          playerId: '😀'.repeat(200),
          idempotencyKey: '😀'.repeat(200),
          properties: { note: text('😀'.repeat(256)) },
        }),
      ),
    ).toBeUndefined();
  });

  it.each([
    ['an empty player id', { playerId: '' }, /playerId/],
    ['a player id over 200 characters', { playerId: 'p'.repeat(201) }, /playerId/],
    ['a control character in the player id', { playerId: 'a\tb' }, /playerId/],
    ['an unpaired surrogate in the player id', { playerId: 'a\ud800' }, /playerId/],
    ['an event key the API refuses', { eventKey: '-starts-with-dash' }, /eventKey/],
    ['an idempotency key with DEL', { idempotencyKey: 'key\u007f' }, /idempotencyKey/],
    ['a property name the API refuses', { properties: { '1st': text('x') } }, /property name/],
    ['a text property over 256 characters', { properties: { note: text('x'.repeat(257)) } }, /property note/],
    ['a NUL in a text property', { properties: { note: text('a\u0000b') } }, /property note/],
  ])('names %s', (_name, overrides, defect) => {
    expect(acceptedEventDefect(event(overrides as Partial<AcceptedEvent>))).toMatch(defect);
  });

  it('names more properties than an event may have', () => {
    const properties = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`p${i}`, text('x')]));
    expect(acceptedEventDefect(event({ properties }))).toMatch(/more than 16 properties/);
  });
});
