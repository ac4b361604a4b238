import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyState, EnvironmentContext } from '@engage/contracts';
import { parseApiKey, secretMatches } from '@engage/contracts/api-key.ts';
import { problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { Logger } from 'pino';
import { touchApiKey } from '../store/api-key-use.ts';
import { TtlCache } from './cache/ttl-cache.ts';
import type { EdgeViews } from './edge-views/edge-views.ts';

/**
 * Resolves the environment behind a project API key from the keys and organizations this replica
 * holds (EdgeViews): a revocation or a billing change takes effect as soon as its record arrives.
 * A well-formed key this replica does not know yet may have been created a moment ago: the request
 * waits up to `arrivalWaitMs` for it before it is refused.
 */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<EnvironmentContext>;
}

const invalidKey = () =>
  problem('auth.api_key_invalid', 'The API key is missing, malformed, unknown or revoked.');

/** How often a key's last use is recorded at most. */
const TOUCH_INTERVAL_MS = 60_000;

export function createAuthenticator(options: {
  views: EdgeViews;
  /** Where the key's last use is recorded (off the request's path). */
  pool: Pool;
  arrivalWaitMs: number;
  log: Logger;
}): Authenticator {
  const { views, pool, log } = options;
  const touched = new TtlCache<string, true>({ ttlMs: TOUCH_INTERVAL_MS, maxEntries: 50_000 });
  const touch = (record: ApiKeyState) => {
    if (touched.get(record.apiKeyId)) return;
    touched.set(record.apiKeyId, true);
    touchApiKey(pool, record.apiKeyId).catch((err) => log.warn({ err }, 'could not record key use'));
  };

  // The secret a record was last verified with: the same secret again is compared with it in
  // constant time instead of being hashed on every request.
  const verifiedSecrets = new WeakMap<ApiKeyState, Buffer>();
  const verified = (record: ApiKeyState, secret: string): boolean => {
    if (!record.secretSha256) return false;
    const known = verifiedSecrets.get(record);
    const presented = Buffer.from(secret);
    if (known && known.length === presented.length && timingSafeEqual(known, presented)) return true;
    if (!secretMatches(secret, record.secretSha256)) return false;
    verifiedSecrets.set(record, presented);
    return true;
  };

  const known = (publicId: string) => {
    const record = views.apiKey(publicId);
    return record !== undefined && views.organization(record.organizationId) !== undefined;
  };

  return {
    async authenticate(authorization) {
      const key = parseApiKey(authorization);
      if (!key) throw invalidKey();
      if (!known(key.publicId)) await views.until(() => known(key.publicId), options.arrivalWaitMs);
      const record = views.apiKey(key.publicId);
      const organization = record && views.organization(record.organizationId);
      if (!record || !organization || record.revoked || !verified(record, key.secret)) throw invalidKey();
      if (record.environmentKind !== key.kind) throw invalidKey();
      if (record.environmentKind === 'Live') refuseUnpaidLive(organization.billingStatus);
      touch(record);
      return {
        organizationId: record.organizationId,
        environmentId: record.environmentId,
        environmentKind: record.environmentKind,
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
