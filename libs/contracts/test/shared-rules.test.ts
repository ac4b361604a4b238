import { describe, expect, it } from 'vitest';
import { type ComparisonOp, type Condition, ConditionSchema, isEligible } from '../src/eligibility.ts';
import { LocalizedTextSchema, resolveText } from '../src/localized.ts';

describe('resolveText', () => {
  const text = { defaultLocale: 'en', translations: { en: 'Sword', de: 'Schwert', 'pt-BR': 'Espada' } };
  it.each([
    [undefined, 'Sword'],
    ['de', 'Schwert'],
    ['DE', 'Schwert'],
    ['de-AT', 'Schwert'],
    ['pt', 'Espada'],
    ['pt-PT', 'Espada'],
    ['fr', 'Sword'],
  ])('LanguageCode %s gives %s', (code, expected) => {
    expect(resolveText(text, code)).toBe(expected);
  });
  it('returns plain text whatever the language', () => {
    expect(resolveText('Shield', 'de')).toBe('Shield');
  });
  it('refuses translations without the default locale', () => {
    expect(LocalizedTextSchema.safeParse({ defaultLocale: 'fr', translations: { en: 'x' } }).success).toBe(
      false,
    );
  });
});

describe('isEligible', () => {
  const player = { country: 'DE', level: 12, vip: true, nickname: null };
  it.each<[Condition | undefined, boolean]>([
    [undefined, true],
    [{ attribute: 'country', op: 'eq', value: 'DE' }, true],
    [{ attribute: 'country', op: 'in', value: ['FR', 'ES'] }, false],
    [{ attribute: 'country', op: 'notIn', value: ['FR', 'ES'] }, true],
    [{ attribute: 'level', op: 'gte', value: 12 }, true],
    [{ attribute: 'level', op: 'gt', value: 12 }, false],
    [{ attribute: 'level', op: 'lt', value: '20' }, false],
    [{ attribute: 'nickname', op: 'exists' }, false],
    [{ attribute: 'missing', op: 'notExists' }, true],
    [{ attribute: 'missing', op: 'ne', value: 1 }, true],
    [
      {
        all: [
          { attribute: 'vip', op: 'eq', value: true },
          { attribute: 'level', op: 'gte', value: 10 },
        ],
      },
      true,
    ],
    [
      {
        any: [
          { attribute: 'vip', op: 'eq', value: false },
          { attribute: 'country', op: 'eq', value: 'FR' },
        ],
      },
      false,
    ],
    [{ not: { attribute: 'country', op: 'eq', value: 'DE' } }, false],
  ])('%j → %s', (condition, expected) => {
    expect(isEligible(condition, player)).toBe(expected);
  });
  it('compares number attributes as exact decimals, beyond what a double holds', () => {
    const wealth = { decimal: '12345678901234567000.00000001' };
    const threshold = Number('12345678901234567000');
    const at = (op: ComparisonOp, value: unknown, attributes = { wealth }) =>
      isEligible({ attribute: 'wealth', op, value } as Condition, attributes);
    expect(at('gt', threshold)).toBe(true);
    expect(at('lte', threshold)).toBe(false);
    expect(at('eq', threshold)).toBe(false);
    expect(at('eq', threshold, { wealth: { decimal: '12345678901234567000' } })).toBe(true);
    expect(at('in', [1, threshold], { wealth: { decimal: '12345678901234567000.0' } })).toBe(true);
    expect(at('lt', -1, { wealth: { decimal: '-1.5' } })).toBe(true);
    expect(at('gte', 1e21, { wealth: { decimal: '1000000000000000000000' } })).toBe(true);
    expect(at('lt', 1e-7, { wealth: { decimal: '0.00000009' } })).toBe(true);
    expect(at('eq', '12', { wealth: { decimal: '12' } })).toBe(false);
    expect(at('ne', 12, { wealth: { decimal: '12.00000001' } })).toBe(true);
  });

  it('validates conditions', () => {
    expect(ConditionSchema.safeParse({ attribute: 'x', op: 'in', value: 1 }).success).toBe(false);
    expect(ConditionSchema.safeParse({ attribute: 'x', op: 'eq' }).success).toBe(false);
    expect(ConditionSchema.safeParse({ all: [] }).success).toBe(false);
    expect(ConditionSchema.safeParse({ any: [{ attribute: 'x', op: 'exists' }] }).success).toBe(true);
  });
});
