import type { RouteOwner } from '@engage/contracts/http/routes.ts';
import type { InternalSigner } from '@engage/kit';
import { type Dispatcher, Pool } from 'undici';

/** The services the control plane asks: the owners of each section, and the gateway for players. */
export type OwnerService = RouteOwner;

export interface UpstreamRequest {
  method: Dispatcher.HttpMethod;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** One service: every call to it carries the internal signature. */
export interface Upstream {
  request(call: UpstreamRequest): Promise<Dispatcher.ResponseData>;
}

/** Keep-alive connection pools to the other services, one per service. */
export type Upstreams = Record<OwnerService, Upstream> & { close(): Promise<void> };

export function createUpstreams(urls: Record<OwnerService, string>, signer: InternalSigner): Upstreams {
  const pools = {
    gateway: createPool(urls.gateway),
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
    gateway: signed(pools.gateway),
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
