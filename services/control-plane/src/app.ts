import { createHttpApp, type HttpApp, type InternalVerifier, type Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { SessionDeps } from './application/sessions.ts';
import { type AdminDeps, adminRoutes } from './http/admin.ts';
import { consoleRoutes } from './http/console.ts';
import { environmentSchemaRoutes } from './http/environment-schema.ts';
import { internalDiscoveryRoutes } from './http/internal-discoveries.ts';
import { openApiRoutes } from './http/openapi.ts';
import type { Upstreams } from './upstreams/upstreams.ts';

export interface ControlPlaneDeps {
  log: Logger;
  pool: Pool;
  /** The gateway (players, the event debugger's record) and the owners of the environment file's sections. */
  upstreams: Upstreams;
  topicPrefix: string;
  adminToken: string;
  /** Operators' failed sign-in throttle and session timeouts. */
  signIn: Omit<SessionDeps, 'pool'>;
  /** Whether the session cookie carries `Secure`. */
  cookieSecure: boolean;
  /** How long an invitation to an organization may be accepted. */
  invitationTtlMs: number;
  readiness?: () => Promise<boolean>;
  /** The console's build, served at /console/ (absent: no console). */
  consoleDirectory?: string;
  /** Wakes the outbox relay after a commit that recorded state changes for their topics. */
  onOutbox: () => void;
  /** Checks the gateway's signed calls (POST /internal/v1/discoveries). */
  verifier: InternalVerifier;
  /** Webhook URL rules and the delivery worker's wake-up. */
  webhooks: AdminDeps['webhooks'];
}

/** The admin API under /admin/v1, the console at /console/, and the documents they are described by. */
export function buildApp(deps: ControlPlaneDeps): HttpApp {
  const app = createHttpApp({
    log: deps.log,
    ...(deps.readiness ? { readiness: deps.readiness } : {}),
  });
  app.register(openApiRoutes);
  if (deps.consoleDirectory) app.register(consoleRoutes, { directory: deps.consoleDirectory });
  app.register(environmentSchemaRoutes);
  const outbox = { topicPrefix: deps.topicPrefix, kick: deps.onOutbox };
  app.register(internalDiscoveryRoutes, { pool: deps.pool, outbox, verifier: deps.verifier });
  app.register(adminRoutes, {
    prefix: '/admin/v1',
    pool: deps.pool,
    upstreams: deps.upstreams,
    log: deps.log,
    adminToken: deps.adminToken,
    signIn: deps.signIn,
    cookieSecure: deps.cookieSecure,
    invitationTtlMs: deps.invitationTtlMs,
    outbox,
    webhooks: deps.webhooks,
  });
  return app;
}
