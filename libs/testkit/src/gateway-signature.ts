import { InternalSigner, InternalVerifier } from '@engage/kit';
import { TEST_INTERNAL_AUTH_SECRET } from './constants.ts';

const signer = new InternalSigner(TEST_INTERNAL_AUTH_SECRET);

/** The verifier of an owning service built in process by a test. */
export const testVerifier = () => new InternalVerifier([TEST_INTERNAL_AUTH_SECRET]);

export interface GatewayCall {
  method: string;
  /** A path and query, or a full URL (fetch). */
  url: string;
  headers?: Record<string, string>;
  /** A JSON value (sent as its JSON text) or the exact text to send. */
  body?: unknown;
}

/**
 * A call to an owning service as the gateway makes it: the body as JSON text, signed with the test
 * stack's secret. The result works as `app.inject(...)` options and as a `fetch` init.
 */
export function signedAsGateway(call: GatewayCall, now?: number) {
  const body =
    call.body === undefined
      ? undefined
      : typeof call.body === 'string'
        ? call.body
        : JSON.stringify(call.body);
  const target = new URL(call.url, 'http://internal');
  const headers = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...call.headers,
  };
  return {
    method: call.method,
    url: call.url,
    headers: signer.sign(
      { method: call.method, url: `${target.pathname}${target.search}`, headers, body },
      now,
    ),
    ...(body === undefined ? {} : { body }),
  };
}

interface Injectable<R> {
  inject(options: {
    method: HttpMethod;
    url: string;
    headers: Record<string, string>;
    body?: string;
  }): Promise<R>;
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `app.inject` into an owning service's app, the call signed as the gateway signs it. */
export function injectAsGateway<R>(
  app: Injectable<R>,
  options: { method: HttpMethod; url: string; headers?: Record<string, string>; payload?: unknown },
): Promise<R> {
  return app.inject(
    signedAsGateway({
      method: options.method,
      url: options.url,
      ...(options.headers ? { headers: options.headers } : {}),
      body: options.payload,
    }) as { method: HttpMethod; url: string; headers: Record<string, string>; body?: string },
  );
}

/** `fetch` of an owning service's URL, the call signed as the gateway signs it. */
export function fetchAsGateway(
  url: string,
  call: { method?: HttpMethod; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Response> {
  return fetch(url, signedAsGateway({ ...call, method: call.method ?? 'GET', url }));
}
