import type { EnvironmentContext } from '@engage/contracts';
import type { InternalSigner } from '@engage/kit';
import { internalHeaders } from '@engage/testkit/stack.ts';

/** A request as the gateway forwards it to the owning service: same method, path and body. */
export interface ForwardedRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/**
 * The headers the gateway would add when forwarding `request` for `playerId` (environment and
 * player context, signed as the gateway signs them): the one place a bench request straight to an
 * owning service is authorized, so a change in how the gateway vouches for its requests is made here once.
 */
export function innerHeaders(
  signer: InternalSigner,
  env: EnvironmentContext,
  playerId: string | undefined,
  request: ForwardedRequest,
): Record<string, string> {
  const headers = internalHeaders(env, playerId === undefined ? undefined : { id: playerId });
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return signer.sign({ method: request.method, url: request.path, headers, body: request.body });
}
