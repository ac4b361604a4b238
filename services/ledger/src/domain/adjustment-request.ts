import {
  fitsCharacters,
  PointsAdjustmentRequestSchema,
  PROBLEMS,
  type ProblemCode,
  type ProblemItem,
} from '@engage/contracts';
import { Problem, requestProblem, validationProblem } from '@engage/kit';
import { z } from 'zod';

/** Longest adjustment reason, in characters (Unicode code points, not UTF-16 units). */
export const MAX_REASON_LENGTH = 500;

/**
 * The contract's adjustment body plus the two rules with codes of their own. They are field checks
 * (not an object-level refinement) so they are reported together with every other refused field.
 */
const AdjustmentBodySchema = PointsAdjustmentRequestSchema.extend({
  amount: PointsAdjustmentRequestSchema.shape.amount.refine((amount) => amount !== 0, {
    message: PROBLEMS['points_adjustment.amount_zero'].detail,
    params: { code: 'points_adjustment.amount_zero' satisfies ProblemCode },
  }),
  reason: z
    .string()
    .refine((reason) => fitsCharacters(reason, MAX_REASON_LENGTH), {
      message: `The reason must be at most ${MAX_REASON_LENGTH} characters.`,
      params: {
        code: 'points_adjustment.reason_too_long' satisfies ProblemCode,
        maxLength: MAX_REASON_LENGTH,
      },
    })
    .optional(),
});

export type AdjustmentRequest = z.infer<typeof AdjustmentBodySchema>;

/** Validates a POST /v1/points/adjustments body; throws one 400 listing every broken rule. */
export function parseAdjustmentRequest(body: unknown): AdjustmentRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw requestProblem('The request body must be a JSON object.', 'not_an_object');
  }
  const result = AdjustmentBodySchema.safeParse(body);
  if (result.success) return result.data;
  const fields = body as Record<string, unknown>;
  throw new Problem(
    400,
    result.error.issues.map((issue) => problemItem(issue, fields)),
  );
}

function problemItem(issue: z.core.$ZodIssue, body: Record<string, unknown>): ProblemItem {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') {
    const { code, ...meta } = issue.params;
    return { code, message: issue.message, meta: { path, ...meta } };
  }
  const field = issue.path[0];
  const value = typeof field === 'string' ? body[field] : undefined;
  const [item] = validationProblem([
    {
      path: issue.path,
      message: issue.message,
      reason: issue.code,
      missing: value === undefined || value === null || value === '',
      tooLong: issue.code === 'too_big' && typeof value === 'string',
    },
  ]).errors;
  return item!;
}
