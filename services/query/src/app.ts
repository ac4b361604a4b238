import { createHttpApp, type HttpApp, type Logger } from '@engage/kit';
import { type Pool, pingPool } from '@engage/postgres';
import { pingRedis, type Redis } from '@engage/redis';
import { leaderboardRoutes } from './http/leaderboards.ts';
import { totalsRoutes } from './http/totals.ts';

export interface QueryDeps {
  log: Logger;
  pool: Pool;
  redis: Redis;
}

export function buildApp(deps: QueryDeps): HttpApp {
  const app = createHttpApp({
    log: deps.log,
    readiness: async () => (await pingPool(deps.pool)) && (await pingRedis(deps.redis)),
  });
  leaderboardRoutes(app);
  totalsRoutes(app, deps);
  return app;
}
