import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type ProblemDocument = components['schemas']['ProblemDocument'];

/** A refused or failed call, carrying what the console shows: the problem's detail and code. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly problem: Partial<ProblemDocument>;

  constructor(status: number, problem: Partial<ProblemDocument>) {
    super(problem.detail ?? problem.title ?? `The server answered ${status}.`);
    this.status = status;
    this.code = problem.code ?? 'http.unexpected';
    this.problem = problem;
  }
}

let csrfToken: string | null = null;

/** Writes carry the session's CSRF token (the session contract); the cookie travels by itself. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (csrfToken && request.method !== 'GET' && request.method !== 'HEAD') {
      request.headers.set('X-CSRF-Token', csrfToken);
    }
    return request;
  },
};

export const api = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: 'same-origin',
});
api.use(csrf);

/** The answer's data, or an `ApiProblem` thrown with the problem document's detail and code. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let answer: Awaited<typeof call>;
  try {
    answer = await call;
  } catch {
    throw new ApiProblem(0, {
      code: 'console.network',
      detail: 'The control plane could not be reached. Check the connection and try again.',
    });
  }
  if (answer.response.ok) return answer.data as T;
  const error = answer.error;
  const problem = typeof error === 'object' && error !== null ? (error as Partial<ProblemDocument>) : {};
  throw new ApiProblem(answer.response.status, problem);
}
