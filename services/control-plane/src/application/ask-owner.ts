import {
  type EnvironmentContext,
  encodePlayerContext,
  IDEMPOTENT_REPLAYED_HEADER,
  INTERNAL_HEADERS,
  type PlayerContext,
  type ProblemItem,
} from '@engage/contracts';
import { injectContext, type Logger, Problem, unexpectedProblem } from '@engage/kit';
import type { OwnerService, Upstreams } from '../upstreams/upstreams.ts';

export interface OwnerCall {
  method: 'GET' | 'POST';
  /** Path and query on the owning service. */
  path: string;
  body?: unknown;
}

export interface OwnerAnswer {
  /** The owner's JSON answer, as it wrote it (numbers keep their exact text). */
  body: Buffer;
  contentType: string;
  replayed: boolean;
}

/**
 * Asks the service owning a player's or a board's data, as the environment an operator's route
 * names (and as the player, when one is given), with the same signed internal headers as a /v1
 * call. The owner's refusals become the gateway's own problem (so `instance` is the admin path);
 * anything it could not answer is `server.unexpected`.
 */
export async function askOwner(
  deps: { upstreams: Upstreams; log: Logger },
  owner: OwnerService,
  environment: EnvironmentContext,
  player: PlayerContext | undefined,
  call: OwnerCall,
): Promise<OwnerAnswer> {
  const headers = injectContext({
    [INTERNAL_HEADERS.organizationId]: environment.organizationId,
    [INTERNAL_HEADERS.environmentId]: environment.environmentId,
    [INTERNAL_HEADERS.environmentKind]: environment.environmentKind,
    ...(player ? { [INTERNAL_HEADERS.player]: encodePlayerContext(player) } : {}),
  });
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  let status: number;
  let text: Buffer;
  let answerHeaders: Record<string, string | string[] | undefined>;
  try {
    const response = await deps.upstreams[owner].request({
      method: call.method,
      path: call.path,
      headers,
      body,
    });
    status = response.statusCode;
    answerHeaders = response.headers;
    text = Buffer.from(await response.body.arrayBuffer());
  } catch (err) {
    deps.log.error({ err, owner, path: call.path }, 'owning service did not answer');
    throw unexpectedProblem();
  }
  if (status >= 200 && status < 300) {
    return {
      body: text,
      contentType: String(answerHeaders['content-type'] ?? 'application/json; charset=utf-8'),
      replayed: answerHeaders[IDEMPOTENT_REPLAYED_HEADER] !== undefined,
    };
  }
  const errors = problemItemsOf(text);
  // A 503 with its problem is an answer (the service says what is unavailable); other 5xx are failures.
  if ((status >= 500 && status !== 503) || errors.length === 0) {
    deps.log.error({ status, owner, path: call.path }, 'owning service failed an operator read or write');
    throw unexpectedProblem();
  }
  throw new Problem(status, errors);
}

function problemItemsOf(text: Buffer): ProblemItem[] {
  try {
    const errors = (JSON.parse(text.toString('utf8')) as { errors?: unknown }).errors;
    return Array.isArray(errors) ? (errors as ProblemItem[]) : [];
  } catch {
    return [];
  }
}
