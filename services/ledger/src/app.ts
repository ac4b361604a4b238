import {
  createHttpApp,
  type HttpApp,
  type InternalVerifier,
  type Logger,
  requireGatewaySignature,
} from '@engage/kit';
import type { MarketplaceCatalog } from './application/marketplace-catalog.ts';
import type { PurchaseDeps } from './application/purchase-item.ts';
import { journalRoutes } from './http/journal.ts';
import { marketplaceRoutes } from './http/marketplace.ts';
import { playerItemsRoutes } from './http/player-items.ts';
import { pointsRoutes } from './http/points.ts';
import { shopDefinitionRoutes } from './http/shop-definition.ts';

export interface LedgerAppDeps extends PurchaseDeps {
  log: Logger;
  marketplace: MarketplaceCatalog;
  /** Checks the gateway's signature on every call but the probes. */
  verifier: InternalVerifier;
  readiness?: () => Promise<boolean>;
}

export function buildApp(deps: LedgerAppDeps): HttpApp {
  const app = createHttpApp({ log: deps.log, readiness: deps.readiness });
  requireGatewaySignature(app, deps.verifier);
  pointsRoutes(app, deps);
  marketplaceRoutes(app, deps);
  playerItemsRoutes(app, deps);
  shopDefinitionRoutes(app, deps);
  journalRoutes(app, deps);
  return app;
}
