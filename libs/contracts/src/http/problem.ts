import { z } from 'zod';

/** One broken rule inside a problem document. `code` is stable; `message` is prose. */
export const ProblemItemSchema = z.object({
  code: z.string(),
  message: z.string(),
  meta: z.record(z.string(), z.unknown()),
});
export type ProblemItem = z.infer<typeof ProblemItemSchema>;

/** RFC 9457 problem document with the three fields the contract adds (code, errors, traceId). */
export const ProblemDocumentSchema = z
  .object({
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string(),
    code: z.string(),
    errors: z.array(ProblemItemSchema).min(1),
    traceId: z.string(),
  })
  .meta({ id: 'ProblemDocument' });
export type ProblemDocument = z.infer<typeof ProblemDocumentSchema>;

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The one fixed sentence every 400 validation problem carries as its detail. */
export const VALIDATION_DETAIL = 'The request is invalid; each refused field is listed in errors.';
