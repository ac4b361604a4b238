import { z } from 'zod';
import { compareDecimalText, decimalTextOfNumber, isDecimalValue } from './decimal.ts';
import type { AttributeValue } from './http/internal.ts';

/**
 * Who may see a definition (mission, item, board, streak): a condition on the player's attributes.
 * Leaves compare one attribute; `all`, `any` and `not` combine them. No condition: everyone.
 */
export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { attribute: string; op: ComparisonOp; value?: ConditionValue | ConditionValue[] };

/** What a condition compares an attribute with (a decimal attribute compares with a number or its text). */
export type ConditionValue = string | number | boolean | null;

export const COMPARISON_OPS = [
  'eq',
  'ne',
  'in',
  'notIn',
  'gt',
  'gte',
  'lt',
  'lte',
  'exists',
  'notExists',
] as const;
export type ComparisonOp = (typeof COMPARISON_OPS)[number];

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const ConditionSchema: z.ZodType<Condition, Condition> = z
  .lazy(() =>
    z.union([
      z.strictObject({ all: z.array(ConditionSchema).min(1).describe('Holds when every condition holds.') }),
      z.strictObject({ any: z.array(ConditionSchema).min(1).describe('Holds when one condition holds.') }),
      z.strictObject({ not: z.lazy(() => ConditionSchema).describe('Holds when this condition does not.') }),
      z
        .strictObject({
          attribute: z.string().min(1).max(100).describe('A player attribute (section playerAttributes).'),
          op: z
            .enum(COMPARISON_OPS)
            .describe('How the attribute compares with value; exists and notExists take no value.'),
          value: z
            .union([scalar, z.array(scalar)])
            .optional()
            .describe('The value to compare with; a list for in and notIn.'),
        })
        .refine((c) => (c.op === 'in' || c.op === 'notIn' ? Array.isArray(c.value) : true), {
          message: 'in and notIn take a list of values',
        })
        .refine((c) => (c.op === 'exists' || c.op === 'notExists' ? true : c.value !== undefined), {
          message: 'this operator needs a value',
        }),
    ]),
  )
  .meta({ id: 'EligibilityCondition' });

/** Whether a player with `attributes` satisfies `condition` (an absent condition admits everyone). */
export function isEligible(
  condition: Condition | undefined | null,
  attributes: Record<string, AttributeValue>,
): boolean {
  if (!condition) return true;
  if ('all' in condition) return condition.all.every((c) => isEligible(c, attributes));
  if ('any' in condition) return condition.any.some((c) => isEligible(c, attributes));
  if ('not' in condition) return !isEligible(condition.not, attributes);
  return compare(attributes[condition.attribute], condition.op, condition.value);
}

function compare(actual: AttributeValue | undefined, op: ComparisonOp, expected: unknown): boolean {
  const present = actual !== undefined && actual !== null;
  switch (op) {
    case 'exists':
      return present;
    case 'notExists':
      return !present;
    case 'eq':
      return present && same(actual, expected);
    case 'ne':
      return !present || !same(actual, expected);
    case 'in':
      return present && (expected as unknown[]).some((e) => same(actual, e));
    case 'notIn':
      return !present || !(expected as unknown[]).some((e) => same(actual, e));
    default:
      return present && ordered(actual, op, expected);
  }
}

/**
 * Number attributes arrive as exact decimal text (`{ decimal }`), condition values as JSON numbers:
 * both are compared as decimals, digit by digit, so no double rounding decides eligibility.
 */
function decimalOf(value: unknown): string | undefined {
  if (isDecimalValue(value)) return value.decimal;
  if (typeof value === 'number' && Number.isFinite(value)) return decimalTextOfNumber(value);
  return undefined;
}

function same(actual: AttributeValue, expected: unknown): boolean {
  const a = decimalOf(actual);
  const b = decimalOf(expected);
  if (a !== undefined || b !== undefined)
    return a !== undefined && b !== undefined && compareDecimalText(a, b) === 0;
  return actual === expected;
}

function ordered(actual: AttributeValue, op: 'gt' | 'gte' | 'lt' | 'lte', expected: unknown): boolean {
  const a = decimalOf(actual);
  const b = decimalOf(expected);
  let order: number;
  if (a !== undefined && b !== undefined) order = compareDecimalText(a, b);
  else if (typeof actual === 'string' && typeof expected === 'string')
    order = actual < expected ? -1 : actual > expected ? 1 : 0;
  else return false;
  return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0;
}
