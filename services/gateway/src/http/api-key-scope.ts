import type { EnvironmentContext } from '@engage/contracts';
import { type HttpApp, jsonText, requestProblem, unrepresentableTextProblem } from '@engage/kit';
import type { Authenticator } from '../application/authenticator.ts';

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

/**
 * Replaces the JSON body parser of `scope` (bodies of its routes are read with `parse`). Text that
 * cannot be stored is refused as the body is parsed, unless the routes check it themselves
 * (`checkText: false`: POST /v1/events refuses such an item on its own and accepts its neighbours).
 */
export function useJsonParser(
  scope: HttpApp,
  parse: (text: string) => unknown,
  options: { keepRaw?: boolean; checkText?: boolean } = {},
): void {
  const { keepRaw = false, checkText = true } = options;
  scope.removeContentTypeParser('application/json');
  const read = (text: string): unknown => {
    let parsed: unknown;
    try {
      parsed = parse(text);
    } catch {
      throw requestProblem('The request body is not valid JSON.', 'malformed_json');
    }
    const refused = checkText ? unrepresentableTextProblem(parsed) : undefined;
    if (refused) throw refused;
    return parsed;
  };
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      const text = jsonText(body as Buffer);
      if (keepRaw) request.rawBody = text;
      done(null, text === '' ? undefined : read(text));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
