import type { components } from './api.ts';

export type ProblemDocument = components['schemas']['ProblemDocument'];

/**
 * A refused or failed call: the API's problem document (RFC 9457) as an error, with its stable
 * `code`, every rule the request broke (`errors`) and, on a 429, how long to wait.
 */
export class EngageProblem extends Error {
  override name = 'EngageProblem';
  readonly status: number;
  readonly code: string;
  readonly problem: Partial<ProblemDocument>;
  /** Seconds the server asked to wait before sending again (`Retry-After`), when it did. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, problem: Partial<ProblemDocument>, retryAfterSeconds?: number) {
    super(problem.detail ?? problem.title ?? `engage answered ${status}`);
    this.status = status;
    this.code = problem.code ?? 'http.unexpected';
    this.problem = problem;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get errors(): ProblemDocument['errors'] {
    return this.problem.errors ?? [];
  }
}

/** The gateway could not be reached, or the connection broke before an answer. */
export class EngageUnreachable extends Error {
  override name = 'EngageUnreachable';
}
