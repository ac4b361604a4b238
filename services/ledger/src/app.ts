import { createHttpApp, type HttpApp, type Logger } from '@engage/kit';
import type { PointsDeps } from './commands/adjust-points.ts';
import { marketplaceRoutes } from './http/marketplace.ts';
import { pointsRoutes } from './http/points.ts';
import type { MarketplaceCatalog } from './store/marketplace-catalog.ts';

export interface LedgerAppDeps extends PointsDeps {
  log: Logger;
  marketplace: MarketplaceCatalog;
  readiness?: () => Promise<boolean>;
}

export function buildApp(deps: LedgerAppDeps): HttpApp {
  const app = createHttpApp({ log: deps.log, readiness: deps.readiness });
  pointsRoutes(app, deps);
  marketplaceRoutes(app, deps);
  return app;
}
