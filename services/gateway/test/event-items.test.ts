import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { checkEventItems, type EventRule, type EventRules } from '../src/domain/event-items.ts';

const receivedAt = new Date('2030-01-02T03:04:05.000Z');

const levelCompleted: EventRule = {
  key: 'level_completed',
  active: true,
  properties: {
    level: { type: 'number', required: true },
    name: { type: 'string', required: false },
    hard: { type: 'boolean', required: false },
    at: { type: 'dateTime', required: false },
  },
};

const rules = (discovery = false, extra: EventRule[] = []): EventRules => ({
  discovery,
  events: new Map([levelCompleted, ...extra].map((r) => [r.key, r])),
});

/** Items as the HTTP layer hands them over: parsed losslessly. */
const items = (json: string) => parse(json) as unknown[];

const codesOf = (json: string, r: EventRules = rules()) =>
  checkEventItems(items(json), r, receivedAt).outcomes.map((o) => (o.ok ? [] : o.errors.map((e) => e.code)));

describe('event items', () => {
  it('accepts a valid item with typed, exact properties', () => {
    const { outcomes } = checkEventItems(
      items(
        '[{"eventKey":"level_completed","playerId":"p1","properties":{"level":12345678901234567890.12345678,' +
          '"name":"intro","hard":true,"at":"2030-01-01T10:00:00+01:00"},"timeZone":"Europe/Paris","idempotencyKey":"k1"}]',
      ),
      rules(),
      receivedAt,
    );
    expect(outcomes[0]).toEqual({
      index: 0,
      ok: true,
      event: {
        eventKey: 'level_completed',
        playerId: 'p1',
        occurredAt: receivedAt.toISOString(),
        timeZone: 'Europe/Paris',
        idempotencyKey: 'k1',
        properties: {
          level: {
            type: 'Number',
            number: '12345678901234567890.12345678',
            string: null,
            boolean: null,
            dateTime: null,
          },
          name: { type: 'String', string: 'intro', number: null, boolean: null, dateTime: null },
          hard: { type: 'Boolean', boolean: true, string: null, number: null, dateTime: null },
          at: {
            type: 'DateTime',
            dateTime: '2030-01-01T09:00:00.000Z',
            string: null,
            number: null,
            boolean: null,
          },
        },
      },
    });
  });

  it('keeps the occurredAt the caller gave', () => {
    const { outcomes } = checkEventItems(
      items(
        '[{"eventKey":"level_completed","playerId":"p","occurredAt":"2029-12-20T00:00:00+01:00","properties":{"level":1}}]',
      ),
      rules(),
      receivedAt,
    );
    expect(outcomes[0]?.ok && outcomes[0].event.occurredAt).toBe('2029-12-19T23:00:00.000Z');
  });

  it('refuses events stamped more than 30 days before receipt or 5 minutes after', () => {
    const at = (occurredAt: string) =>
      `[{"eventKey":"level_completed","playerId":"p","occurredAt":"${occurredAt}","properties":{"level":1}}]`;
    expect(codesOf(at('2029-12-03T03:04:06Z'))).toEqual([[]]);
    expect(codesOf(at('2029-12-03T03:04:04Z'))).toEqual([['validation.occurred_at']]);
    expect(codesOf(at('2030-01-02T03:09:05Z'))).toEqual([[]]);
    expect(codesOf(at('2030-01-02T03:09:06Z'))).toEqual([['validation.occurred_at']]);
  });

  it.each([
    ['an unknown event', '{"eventKey":"nope","playerId":"p"}', ['event.not_found']],
    [
      'an unknown property',
      '{"eventKey":"level_completed","playerId":"p","properties":{"level":1,"x":2}}',
      ['event.unknown_property'],
    ],
    [
      'a required property missing',
      '{"eventKey":"level_completed","playerId":"p","properties":{}}',
      ['event.required_property_missing'],
    ],
    [
      'a type mismatch',
      '{"eventKey":"level_completed","playerId":"p","properties":{"level":"one"}}',
      ['event.property_type_mismatch'],
    ],
    [
      'a bad date',
      '{"eventKey":"level_completed","playerId":"p","properties":{"level":1,"at":"yesterday"}}',
      ['event.property_type_mismatch'],
    ],
    [
      '21 integer digits',
      '{"eventKey":"level_completed","playerId":"p","properties":{"level":123456789012345678901}}',
      ['event.property_value_out_of_range'],
    ],
    [
      '9 decimals',
      '{"eventKey":"level_completed","playerId":"p","properties":{"level":1.123456789}}',
      ['event.property_value_out_of_range'],
    ],
    ['an empty item', '{}', ['event.item_missing']],
    ['a null item', 'null', ['event.item_missing']],
    ['no player', '{"eventKey":"level_completed","properties":{"level":1}}', ['player.external_id_missing']],
    [
      'a long player id',
      `{"eventKey":"level_completed","playerId":"${'x'.repeat(201)}","properties":{"level":1}}`,
      ['player.external_id_too_long'],
    ],
    [
      'a bad time zone',
      '{"eventKey":"level_completed","playerId":"p","timeZone":"Mars/Olympus","properties":{"level":1}}',
      ['player.time_zone_invalid'],
    ],
    [
      'an offset as time zone',
      '{"eventKey":"level_completed","playerId":"p","timeZone":"+02:00","properties":{"level":1}}',
      ['player.time_zone_invalid'],
    ],
    [
      'a long idempotency key',
      `{"eventKey":"level_completed","playerId":"p","idempotencyKey":"${'k'.repeat(201)}","properties":{"level":1}}`,
      ['validation.idempotency_key'],
    ],
    [
      'a bad occurredAt',
      '{"eventKey":"level_completed","playerId":"p","occurredAt":"today","properties":{"level":1}}',
      ['validation.occurred_at'],
    ],
    [
      'an unknown field',
      '{"eventKey":"level_completed","playerId":"p","color":"red","properties":{"level":1}}',
      ['validation.color'],
    ],
  ])('refuses %s', (_case, item, codes) => {
    expect(codesOf(`[${item}]`)).toEqual([codes]);
  });

  it('counts lengths in characters: ids, keys and texts of astral characters at their limits pass', () => {
    const emoji = '\u{1F600}';
    const atLimit = `{"eventKey":"level_completed","playerId":"${emoji.repeat(200)}","idempotencyKey":"${emoji.repeat(200)}","properties":{"level":1,"name":"${emoji.repeat(256)}"}}`;
    const overLimit = [
      `{"eventKey":"level_completed","playerId":"${emoji.repeat(201)}","properties":{"level":1}}`,
      `{"eventKey":"level_completed","playerId":"p","idempotencyKey":"${emoji.repeat(201)}","properties":{"level":1}}`,
      `{"eventKey":"level_completed","playerId":"p","properties":{"level":1,"name":"${emoji.repeat(257)}"}}`,
    ];
    expect(codesOf(`[${[atLimit, ...overLimit].join(',')}]`)).toEqual([
      [],
      ['player.external_id_too_long'],
      ['validation.idempotency_key'],
      ['event.property_value_out_of_range'],
    ]);
  });

  it('refuses a switched-off event', () => {
    const off: EventRule = { key: 'old', active: false, properties: {} };
    expect(codesOf('[{"eventKey":"old","playerId":"p"}]', rules(false, [off]))).toEqual([['event.inactive']]);
  });

  it('reports every broken rule of an item, and items independently', () => {
    expect(
      codesOf(
        '[{"eventKey":"level_completed","properties":{"level":"x","y":1}}, {"eventKey":"level_completed","playerId":"p","properties":{"level":2}}]',
      ),
    ).toEqual([['player.external_id_missing', 'event.property_type_mismatch', 'event.unknown_property'], []]);
  });

  it('with discovery, defines an unknown event and properties from the first accepted occurrence', () => {
    const { outcomes, discovered } = checkEventItems(
      items(
        '[{"eventKey":"new_one","playerId":"p","properties":{"when":"2030-01-01T00:00:00Z","n":1.5,"b":false}},' +
          '{"eventKey":"new_one","playerId":"p","properties":{"n":"text"}},' +
          '{"eventKey":"level_completed","playerId":"p","properties":{"level":1,"extra":"e"}}]',
      ),
      rules(true),
      receivedAt,
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(discovered.get('new_one')).toEqual({
      key: 'new_one',
      active: true,
      properties: {
        when: { type: 'string', required: false },
        n: { type: 'number', required: false },
        b: { type: 'boolean', required: false },
      },
    });
    expect(discovered.get('level_completed')?.properties.extra).toEqual({ type: 'string', required: false });
    expect(discovered.get('level_completed')?.properties.level).toEqual({ type: 'number', required: true });
  });

  it('does not discover from a refused item', () => {
    const { discovered, outcomes } = checkEventItems(
      items('[{"eventKey":"brand_new","properties":{"a":1}}]'),
      rules(true),
      receivedAt,
    );
    expect(outcomes[0]?.ok).toBe(false);
    expect(discovered.size).toBe(0);
  });

  it('refuses objects as discovered properties', () => {
    expect(codesOf('[{"eventKey":"x","playerId":"p","properties":{"o":{"a":1}}}]', rules(true))).toEqual([
      ['event.property_type_mismatch'],
    ]);
  });
});
