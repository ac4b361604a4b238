import { STATUS_CODES } from 'node:http';
import {
  type AnyProblemCode,
  FIELD_OVERRIDES,
  fieldCodeName,
  findUnrepresentableText,
  ITEM_REFUSALS,
  PROBLEM_MEDIA_TYPE,
  PROBLEMS,
  type ProblemCode,
  type ProblemDocument,
  type ProblemItem,
  UNREPRESENTABLE_TEXT_REASON,
  unrepresentableTextMessage,
  VALIDATION_DETAIL,
} from '@engage/contracts';

export { PROBLEM_MEDIA_TYPE };

/**
 * A refusal the caller can act on. Thrown anywhere in a request; the HTTP layer turns it into the
 * contract's problem document. Several broken rules travel together; the first one names the problem.
 */
export class Problem extends Error {
  readonly status: number;
  readonly errors: ProblemItem[];
  readonly headers: Record<string, string>;

  constructor(status: number, errors: ProblemItem[], headers: Record<string, string> = {}) {
    super(errors[0]?.message ?? 'problem');
    this.name = 'Problem';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }

  get code(): string {
    return this.errors[0]?.code ?? 'server.unexpected';
  }
}

/**
 * A refusal with a code of the catalog (@engage/contracts problems.ts): its status comes from there,
 * and its detail too unless the call gives a more precise message.
 */
export function problem(
  code: ProblemCode,
  message: string = PROBLEMS[code].detail,
  meta: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return new Problem(PROBLEMS[code].status, [{ code, message, meta }], headers);
}

/** One error of a problem document or of a refused batch item; its message defaults to the catalog's. */
export function problemItem(code: AnyProblemCode, message?: string, meta: Record<string, unknown> = {}) {
  const known = (PROBLEMS as Record<string, { detail: string }>)[code] ?? ITEM_REFUSALS_BY_CODE[code];
  return { code, message: message ?? known?.detail ?? '', meta } satisfies ProblemItem;
}

const ITEM_REFUSALS_BY_CODE: Record<string, { detail: string }> = ITEM_REFUSALS;

type CodeOfStatus<S extends number> = {
  [C in ProblemCode]: (typeof PROBLEMS)[C]['status'] extends S ? C : never;
}[ProblemCode];

export const notFound = (code: CodeOfStatus<404>, message?: string) => problem(code, message);
export const conflict = (code: CodeOfStatus<409>, message?: string, meta?: Record<string, unknown>) =>
  problem(code, message, meta);

export interface FieldIssue {
  /** Path of the refused value; the first segment names the field. */
  path: readonly PropertyKey[];
  message: string;
  /** Zod issue code or a reason of our own. */
  reason: string;
  missing?: boolean;
  tooLong?: boolean;
}

/** A 400 that names each refused field (`validation.<field>`, or a field's own code from the contract). */
export function validationProblem(issues: FieldIssue[]): Problem {
  const errors = issues.map((issue): ProblemItem => {
    const first = issue.path.find((segment) => typeof segment === 'string');
    const field = first === undefined ? 'request' : fieldCodeName(String(first));
    const override = FIELD_OVERRIDES[field];
    const code =
      (issue.missing && override?.missing) || (issue.tooLong && override?.tooLong) || `validation.${field}`;
    return {
      code,
      message: issue.message,
      meta: { path: issue.path.map(String).join('.'), reason: issue.reason },
    };
  });
  return new Problem(400, errors);
}

export const requestProblem = (message: string, reason: string) =>
  validationProblem([{ path: [], message, reason }]);

/**
 * A 400 naming each place in the given parsed values (body, path parameters, query) where text
 * cannot be stored faithfully (see @engage/contracts text.ts); undefined when there is none.
 * A place in a key names the object holding it, so the answer never repeats the text itself.
 */
export function unrepresentableTextProblem(...values: unknown[]): Problem | undefined {
  const found = values.flatMap((value) => findUnrepresentableText(value));
  if (found.length === 0) return undefined;
  return validationProblem(
    found.map((place) => ({
      path: place.path,
      message: unrepresentableTextMessage(place),
      reason: UNREPRESENTABLE_TEXT_REASON,
    })),
  );
}

/**
 * The contract's document: code and detail come from the first error. A 400 whose code is
 * `validation.*` always carries the one fixed detail sentence, whatever other errors follow.
 */
export function problemDocument(p: Problem, instance: string, traceId: string): ProblemDocument {
  const isValidation = p.status === 400 && p.code.startsWith('validation.');
  return {
    title: STATUS_CODES[p.status] ?? 'Error',
    status: p.status,
    detail: isValidation ? VALIDATION_DETAIL : (p.errors[0]?.message ?? ''),
    instance,
    code: p.code,
    errors: p.errors,
    traceId,
  };
}

export const unexpectedProblem = () => problem('server.unexpected');
