import {
  createHttpApp,
  type HttpApp,
  type InternalVerifier,
  type Logger,
  requireGatewaySignature,
} from '@engage/kit';
import { type Pool, pingPool } from '@engage/postgres';
import type { RulesCache } from './application/rules-cache.ts';
import { activityRoutes } from './http/activity.ts';
import { definitionRoutes } from './http/definitions.ts';
import { missionPeekRoutes, missionRoutes } from './http/missions.ts';
import { streakRoutes } from './http/streaks.ts';

export interface RulesDeps {
  log: Logger;
  pool: Pool;
  rules: RulesCache;
  topicPrefix: string;
  /** Wakes the outbox relay after a request committed outbox records. */
  onOutbox: () => void;
  /** Checks the gateway's signature on every call but the probes. */
  verifier: InternalVerifier;
}

export function buildApp(deps: RulesDeps): HttpApp {
  const app = createHttpApp({ log: deps.log, readiness: () => pingPool(deps.pool) });
  requireGatewaySignature(app, deps.verifier);
  missionRoutes(app, deps);
  missionPeekRoutes(app, deps);
  streakRoutes(app, deps);
  definitionRoutes(app, deps);
  activityRoutes(app, deps);
  return app;
}
