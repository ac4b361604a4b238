import {
  INTERNAL_DISCOVERIES_PATH,
  type RecordDiscoveries,
  RecordedDiscoveriesSchema,
} from '@engage/contracts/http/internal-discoveries.ts';
import type { InternalSigner } from '@engage/kit';
import { Pool } from 'undici';
import type { EventRule } from '../domain/event-items.ts';

/** The edge's calls to the control plane, signed like its calls to the owning services. */
export interface ControlPlane {
  /** Records first occurrences; answers the events asked about as stored. */
  recordDiscoveries(environmentId: string, discovered: readonly EventRule[]): Promise<EventRule[]>;
  close(): Promise<void>;
}

/** `url` may be given late (a gateway that calls itself knows its address once it listens). */
export function createControlPlane(url: string, signer: InternalSigner): ControlPlane {
  let pool: Pool | undefined;
  const connection = () => {
    pool ??= new Pool(url, {
      connections: 16,
      keepAliveTimeout: 30_000,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
      connectTimeout: 5_000,
    });
    return pool;
  };
  return {
    async recordDiscoveries(environmentId, discovered) {
      const request: RecordDiscoveries = { environmentId, events: [...discovered] };
      const body = JSON.stringify(request);
      const headers = { 'content-type': 'application/json' };
      const response = await connection().request({
        method: 'POST',
        path: INTERNAL_DISCOVERIES_PATH,
        headers: signer.sign({ method: 'POST', url: INTERNAL_DISCOVERIES_PATH, headers, body }),
        body,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) {
        throw new Error(
          `the control plane answered ${response.statusCode} to a discovery: ${text.slice(0, 500)}`,
        );
      }
      return RecordedDiscoveriesSchema.parse(JSON.parse(text)).events;
    },
    close: async () => {
      await pool?.close();
    },
  };
}
