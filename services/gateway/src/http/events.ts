import { MAX_EVENT_BATCH_ITEMS } from '@engage/contracts/http/events.ts';
import {
  type HttpApp,
  problem,
  requestProblem,
  unrepresentableTextProblem,
  validationProblem,
} from '@engage/kit';
import type { Authenticator } from '../application/authenticator.ts';
import { type IngestDeps, ingestEvents } from '../application/ingest-events.ts';
import { parseJsonExactly } from '../domain/lossless-json.ts';
import { environmentOfRequest, requireApiKey, useJsonParser } from './api-key-scope.ts';

export interface EventsRouteDeps extends IngestDeps {
  authenticator: Authenticator;
  /** Largest batch body accepted, in bytes. */
  bodyLimit: number;
}

/**
 * POST /v1/events. The body is parsed losslessly: numbers reach the checks as their exact text, so
 * `12345678901234567890.12345678` is kept to the last digit.
 */
export async function eventRoutes(scope: HttpApp, deps: EventsRouteDeps): Promise<void> {
  requireApiKey(scope, deps.authenticator);
  useJsonParser(scope, parseJsonExactly, { checkText: false });
  scope.setErrorHandler((error) => {
    // A body larger than 1,000 maximal items can need is a batch too large, whatever it holds.
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw problem('event_batch.too_large', `The body is larger than ${deps.bodyLimit} bytes.`, {
        limitBytes: deps.bodyLimit,
      });
    }
    throw error;
  });
  scope.post('/v1/events', { bodyLimit: deps.bodyLimit }, async (request, reply) => {
    const environment = environmentOfRequest(request);
    const items = batchItems(request.body);
    const result = await ingestEvents(deps, environment, items);
    return reply.header('cache-control', 'no-store').send(result);
  });
}

function batchItems(body: unknown): unknown[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw requestProblem('The request body must be a JSON object with an events array.', 'not_an_object');
  }
  // Items are checked one by one (see checkEventItems); whatever else the body holds, here.
  const { events, ...rest } = body as { events?: unknown };
  const refused = unrepresentableTextProblem(Array.isArray(events) ? rest : body);
  if (refused) throw refused;
  if (!Array.isArray(events)) {
    throw validationProblem([
      { path: ['events'], message: 'events must be an array of event items.', reason: 'invalid_type' },
    ]);
  }
  if (events.length === 0) throw problem('event_batch.empty');
  if (events.length > MAX_EVENT_BATCH_ITEMS) {
    throw problem('event_batch.too_large', `A batch holds at most ${MAX_EVENT_BATCH_ITEMS} events.`, {
      limit: MAX_EVENT_BATCH_ITEMS,
      received: events.length,
    });
  }
  return events;
}
