import { z } from 'zod';
import type { AttributeValue } from './http/internal.ts';

/**
 * Who may see a definition (mission, item, board, streak): a condition on the player's attributes.
 * Leaves compare one attribute; `all`, `any` and `not` combine them. No condition: everyone.
 */
export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { attribute: string; op: ComparisonOp; value?: AttributeValue | AttributeValue[] };

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

export const ConditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.strictObject({ all: z.array(ConditionSchema).min(1) }),
    z.strictObject({ any: z.array(ConditionSchema).min(1) }),
    z.strictObject({ not: ConditionSchema }),
    z
      .strictObject({
        attribute: z.string().min(1).max(100),
        op: z.enum(COMPARISON_OPS),
        value: z.union([scalar, z.array(scalar)]).optional(),
      })
      .refine((c) => (c.op === 'in' || c.op === 'notIn' ? Array.isArray(c.value) : true), {
        message: 'in and notIn take a list of values',
      })
      .refine((c) => (c.op === 'exists' || c.op === 'notExists' ? true : c.value !== undefined), {
        message: 'this operator needs a value',
      }),
  ]),
);

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
      return present && actual === expected;
    case 'ne':
      return !present || actual !== expected;
    case 'in':
      return present && (expected as unknown[]).includes(actual);
    case 'notIn':
      return !present || !(expected as unknown[]).includes(actual);
    default:
      return present && ordered(actual, op, expected);
  }
}

function ordered(actual: AttributeValue, op: 'gt' | 'gte' | 'lt' | 'lte', expected: unknown): boolean {
  if (typeof actual !== typeof expected || (typeof actual !== 'number' && typeof actual !== 'string'))
    return false;
  const a = actual as number | string;
  const b = expected as number | string;
  return op === 'gt' ? a > b : op === 'gte' ? a >= b : op === 'lt' ? a < b : a <= b;
}
