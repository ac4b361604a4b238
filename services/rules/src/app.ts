import { createHttpApp, type HttpApp, type Logger } from '@engage/kit';
import { type Pool, pingPool } from '@engage/postgres';
import { activityRoutes } from './http/activity.ts';
import { missionRoutes } from './http/missions.ts';
import { streakRoutes } from './http/streaks.ts';

export interface RulesDeps {
  log: Logger;
  pool: Pool;
}

export function buildApp(deps: RulesDeps): HttpApp {
  const app = createHttpApp({ log: deps.log, readiness: () => pingPool(deps.pool) });
  missionRoutes(app);
  streakRoutes(app);
  activityRoutes(app, deps);
  return app;
}
