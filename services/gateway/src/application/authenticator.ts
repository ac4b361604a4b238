import { timingSafeEqual } from 'node:crypto';
import type { EnvironmentContext } from '@engage/contracts';
import { problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { Logger } from 'pino';
import { parseApiKey, secretMatches } from '../domain/api-key.ts';
import { findKeyRecord, type KeyRecord, touchApiKey } from '../store/control-plane.ts';
import { TtlCache } from './cache/ttl-cache.ts';

/**
 * Resolves the environment behind a project API key. Key rows are cached for `cacheTtlMs` per
 * replica, so a revocation or a billing change takes effect within that bound; the secret is
 * checked against the stored hash on every request.
 */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<EnvironmentContext>;
}

const invalidKey = () =>
  problem('auth.api_key_invalid', 'The API key is missing, malformed, unknown or revoked.');

export function createAuthenticator(options: { pool: Pool; cacheTtlMs: number; log: Logger }): Authenticator {
  const { pool, log } = options;
  const records = new TtlCache<string, KeyRecord | null>({ ttlMs: options.cacheTtlMs, maxEntries: 50_000 });

  const load = async (publicId: string) => {
    const record = (await findKeyRecord(pool, publicId)) ?? null;
    // Recorded at most once per cache period and key: off the request's path.
    if (record && !record.revoked) {
      touchApiKey(pool, record.apiKeyId).catch((err) => log.warn({ err }, 'could not record key use'));
    }
    return record;
  };

  // The secret a cached record was last verified with: the same secret again is compared with it in
  // constant time instead of being hashed on every request.
  const verifiedSecrets = new WeakMap<KeyRecord, Buffer>();
  const verified = (record: KeyRecord, secret: string): boolean => {
    const known = verifiedSecrets.get(record);
    const presented = Buffer.from(secret);
    if (known && known.length === presented.length && timingSafeEqual(known, presented)) return true;
    if (!secretMatches(secret, record.secretSha256)) return false;
    verifiedSecrets.set(record, presented);
    return true;
  };

  return {
    async authenticate(authorization) {
      const key = parseApiKey(authorization);
      if (!key) throw invalidKey();
      const record = await records.getOrLoad(key.publicId, () => load(key.publicId));
      if (!record || record.revoked || !verified(record, key.secret)) throw invalidKey();
      const environment = record.environment;
      if (!environment) {
        throw problem('project_environment.not_found', 'The environment behind the key did not load.');
      }
      if (environment.kind !== key.kind) throw invalidKey();
      if (environment.kind === 'Live') refuseUnpaidLive(environment.billingStatus);
      return {
        organizationId: environment.organizationId,
        environmentId: environment.environmentId,
        environmentKind: environment.kind,
      };
    },
  };
}

function refuseUnpaidLive(billingStatus: string): void {
  if (billingStatus === 'none') {
    throw problem('billing_required', 'Live keys need active billing on the organization.');
  }
  if (billingStatus === 'overdue') {
    throw problem('billing_payment_overdue', "The organization's last payment failed; Live keys are paused.");
  }
}
