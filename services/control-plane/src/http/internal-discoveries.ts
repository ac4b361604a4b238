import {
  INTERNAL_DISCOVERIES_PATH,
  RecordDiscoveriesSchema,
  RecordedDiscoveriesSchema,
} from '@engage/contracts/http/internal-discoveries.ts';
import { type HttpApp, type InternalVerifier, problem, requireGatewaySignature } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { recordDiscoveries } from '../application/record-discoveries.ts';
import type { StateOutbox } from '../application/state-outbox.ts';

/**
 * The control plane's side of discovery, for the edge: only calls signed with the internal secret
 * are answered (registered in a scope of its own, so the signature is required of this route only).
 */
export async function internalDiscoveryRoutes(
  scope: HttpApp,
  deps: { pool: Pool; outbox: StateOutbox; verifier: InternalVerifier },
): Promise<void> {
  requireGatewaySignature(scope, deps.verifier);
  scope.post(
    INTERNAL_DISCOVERIES_PATH,
    { schema: { body: RecordDiscoveriesSchema, response: { 200: RecordedDiscoveriesSchema } } },
    async (request) => {
      const { environmentId, events } = request.body;
      const stored = await recordDiscoveries(deps.pool, deps.outbox, environmentId, events);
      if (!stored) {
        throw problem('project_environment.not_found', 'No environment has this id.');
      }
      return { events: stored };
    },
  );
}
