import type { RouteOwner } from '@engage/contracts/http/routes.ts';
import { Pool } from 'undici';

/** Keep-alive connection pools to the owning services, one per service. */
export type OwnerService = Exclude<RouteOwner, 'gateway'>;
export type Upstreams = Record<OwnerService, Pool> & { close(): Promise<void> };

export function createUpstreams(urls: Record<OwnerService, string>): Upstreams {
  const pool = (url: string) =>
    new Pool(url, {
      connections: 128,
      keepAliveTimeout: 30_000,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
      connectTimeout: 5_000,
    });
  const pools = { rules: pool(urls.rules), ledger: pool(urls.ledger), query: pool(urls.query) };
  return {
    ...pools,
    close: async () => {
      await Promise.all(Object.values(pools).map((p) => p.close()));
    },
  };
}
