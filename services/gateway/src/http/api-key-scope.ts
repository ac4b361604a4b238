import type { EnvironmentContext } from '@engage/contracts';
import { type HttpApp, requestProblem } from '@engage/kit';
import type { Authenticator } from '../auth/authenticator.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The environment resolved from the project API key. */
    environment?: EnvironmentContext;
    /** The JSON body exactly as received, for forwarding it verbatim. */
    rawBody?: string;
  }
}

/** Every route registered in `scope` requires a project API key, checked before the body is read. */
export function requireApiKey(scope: HttpApp, authenticator: Authenticator): void {
  scope.addHook('onRequest', async (request) => {
    request.environment = await authenticator.authenticate(request.headers.authorization);
  });
}

export function environmentOfRequest(request: { environment?: EnvironmentContext }): EnvironmentContext {
  if (!request.environment) throw new Error('route registered without requireApiKey');
  return request.environment;
}

/** Replaces the JSON body parser of `scope` (bodies of its routes are read with `parse`). */
export function useJsonParser(scope: HttpApp, parse: (text: string) => unknown, keepRaw = false): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (keepRaw) request.rawBody = text;
    if (text === '') return done(null, undefined);
    try {
      done(null, parse(text));
    } catch {
      done(requestProblem('The request body is not valid JSON.', 'malformed_json'), undefined);
    }
  });
}
