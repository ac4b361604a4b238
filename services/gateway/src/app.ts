import { PUBLIC_MAX_HEADER_BYTES } from '@engage/contracts';
import { createHttpApp, type HttpApp, type InternalVerifier, type Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { createAuthenticator } from './application/authenticator.ts';
import type { EdgeViews } from './application/edge-views/edge-views.ts';
import {
  type OrganizationLimit,
  registerOrganizationLimit,
} from './application/organization-limit/organization-limit.ts';
import type { RefusalTally } from './application/organization-limit/refusal-tally.ts';
import type { PlayerDirectory } from './application/player-directory.ts';
import type { RecentEvents } from './application/recent-events.ts';
import { environmentSchemaRoutes } from './http/environment-schema.ts';
import { eventRoutes } from './http/events.ts';
import { forwardRoutes } from './http/forward.ts';
import { internalRoutes } from './http/internal.ts';
import { openApiRoutes } from './http/openapi.ts';
import { playerRoutes } from './http/players.ts';
import type { EventProducer } from './kafka/event-producer.ts';
import type { ControlPlane } from './upstreams/control-plane.ts';
import type { Upstreams } from './upstreams/upstreams.ts';

export interface GatewayDeps {
  log: Logger;
  pool: Pool;
  producer: EventProducer;
  upstreams: Upstreams;
  topicPrefix: string;
  /** Checks the control plane's signed calls to /internal/v1. */
  verifier: InternalVerifier;
  eventsBodyLimit: number;
  /** The keys, organizations and event definitions this replica holds (the caller stops them). */
  views: EdgeViews;
  /** How long a request with a key this replica does not know yet waits for it. */
  keyArrivalWaitMs: number;
  /** Where the edge records what discovery defines. */
  controlPlane: ControlPlane;
  /** The players this replica knows (it listens to their changes: the caller closes it). */
  players: PlayerDirectory;
  /** An idempotency key still pending after this long is produced again with its eventId. */
  pendingKeyTimeoutMs: number;
  readiness?: () => Promise<boolean>;
  /** The organization's in-flight limit (absent in tests that do not exercise it). */
  organizationLimit?: OrganizationLimit;
  /** Requests the organization limit refused today, per organization (the console's overview). */
  refusalTally?: RefusalTally;
  /** The live event debugger's record of each environment's recent items. */
  recentEvents: RecentEvents;
  /** Wakes the outbox relay after a commit that recorded state changes for their topics. */
  onOutbox: () => void;
}

export function buildApp(deps: GatewayDeps): HttpApp {
  const app = createHttpApp({
    log: deps.log,
    maxHeaderBytes: PUBLIC_MAX_HEADER_BYTES,
    ...(deps.readiness ? { readiness: deps.readiness } : {}),
  });
  if (deps.organizationLimit) registerOrganizationLimit(app, deps.organizationLimit, deps.refusalTally);
  const { players, views } = deps;
  const authenticator = createAuthenticator({
    views,
    pool: deps.pool,
    arrivalWaitMs: deps.keyArrivalWaitMs,
    log: deps.log,
  });
  const outbox = { topicPrefix: deps.topicPrefix, kick: deps.onOutbox };

  app.register(openApiRoutes);
  app.register(environmentSchemaRoutes);
  app.register(internalRoutes, {
    prefix: '/internal/v1',
    pool: deps.pool,
    verifier: deps.verifier,
    recentEvents: deps.recentEvents,
    refusalTally: deps.refusalTally,
  });
  app.register(eventRoutes, {
    authenticator,
    pool: deps.pool,
    producer: deps.producer,
    topicPrefix: deps.topicPrefix,
    views,
    controlPlane: deps.controlPlane,
    players,
    log: deps.log,
    pendingKeyTimeoutMs: deps.pendingKeyTimeoutMs,
    recentEvents: deps.recentEvents,
    bodyLimit: deps.eventsBodyLimit,
  });
  app.register(playerRoutes, { authenticator, pool: deps.pool, players, outbox, views });
  app.register(forwardRoutes, { authenticator, players, upstreams: deps.upstreams });
  return app;
}
