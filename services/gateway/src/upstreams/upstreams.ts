import type { RouteOwner } from '@engage/contracts/http/routes.ts';
import type { InternalSigner } from '@engage/kit';
import { type Dispatcher, Pool } from 'undici';

export type OwnerService = Exclude<RouteOwner, 'gateway'>;

export interface UpstreamRequest {
  method: Dispatcher.HttpMethod;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** One owning service: every call to it carries the gateway's signature. */
export interface Upstream {
  request(call: UpstreamRequest): Promise<Dispatcher.ResponseData>;
}

/** Keep-alive connection pools to the owning services, one per service. */
export type Upstreams = Record<OwnerService, Upstream> & { close(): Promise<void> };

export function createUpstreams(urls: Record<OwnerService, string>, signer: InternalSigner): Upstreams {
  const pools = {
    rules: createPool(urls.rules),
    ledger: createPool(urls.ledger),
    query: createPool(urls.query),
  };
  const signed = (pool: Pool): Upstream => ({
    request: (call) =>
      pool.request({
        method: call.method,
        path: call.path,
        headers: signer.sign({ method: call.method, url: call.path, headers: call.headers, body: call.body }),
        ...(call.body === undefined ? {} : { body: call.body }),
      }),
  });
  return {
    rules: signed(pools.rules),
    ledger: signed(pools.ledger),
    query: signed(pools.query),
    close: async () => {
      await Promise.all(Object.values(pools).map((p) => p.close()));
    },
  };
}

function createPool(url: string): Pool {
  return new Pool(url, {
    connections: 128,
    keepAliveTimeout: 30_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    connectTimeout: 5_000,
  });
}
