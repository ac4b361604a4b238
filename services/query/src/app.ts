import {
  createHttpApp,
  type HttpApp,
  type InternalVerifier,
  type Logger,
  requireGatewaySignature,
} from '@engage/kit';
import { type Pool, pingPool } from '@engage/postgres';
import { pingRedis, type Redis } from '@engage/redis';
import { NameCache, TopCache } from './application/reading/read-caches.ts';
import { leaderboardDefinitionRoutes } from './http/definitions.ts';
import { leaderboardRoutes } from './http/leaderboards.ts';
import { periodRoutes } from './http/periods.ts';
import { settleRoutes } from './http/settle.ts';
import { totalsRoutes } from './http/totals.ts';
import { DefinitionCache, type Definitions } from './store/definitions.ts';
import { defineReadScript } from './store/redis/live-read.ts';

export interface QueryDeps {
  log: Logger;
  pool: Pool;
  redis: Redis;
  /** Checks the gateway's signature on every call but the probes. */
  verifier: InternalVerifier;
  keyPrefix?: string;
  topicPrefix?: string;
  definitions?: Definitions;
  /** Kicks the outbox relay after a settlement enqueued records. */
  published?: () => void;
  /** What reads may serve from memory (default: nothing, every read asks Redis). */
  caches?: { top: TopCache; names: NameCache };
}

export function buildApp(deps: QueryDeps): HttpApp {
  const app = createHttpApp({
    log: deps.log,
    readiness: async () => (await pingPool(deps.pool)) && (await pingRedis(deps.redis)),
  });
  requireGatewaySignature(app, deps.verifier);
  defineReadScript(deps.redis);
  const boards = {
    ...deps,
    keyPrefix: deps.keyPrefix ?? '',
    topicPrefix: deps.topicPrefix ?? 'engage.',
    definitions: deps.definitions ?? new DefinitionCache(deps.pool, 2_000),
    published: deps.published ?? (() => {}),
    caches: deps.caches ?? { top: new TopCache(0), names: new NameCache(0) },
  };
  leaderboardRoutes(app, boards);
  leaderboardDefinitionRoutes(app, boards);
  settleRoutes(app, boards);
  periodRoutes(app, boards);
  totalsRoutes(app, deps);
  return app;
}
