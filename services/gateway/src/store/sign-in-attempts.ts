import { createHash } from 'node:crypto';
import type { Redis } from '@engage/redis';

/**
 * Sign-in attempts counted in Redis per email and per client address, in fixed windows: every
 * replica counts in the same keys, so the limit is exact however many gateways run.
 */

export interface SignInLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

// KEYS: the email's counter, the address's counter. ARGV: window ms, email limit, address limit.
// Counts the attempt in both and answers the longest wait of a counter over its limit (0: allowed).
const COUNT_ATTEMPT = `
local wait = 0
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  if count > tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl > wait then wait = ttl end
  end
end
return wait
`;

export function createSignInAttempts(redis: Redis, keyPrefix: string, limits: SignInLimits) {
  // Hashed, so neither an address nor an email is readable in Redis or can shape a key.
  const key = (kind: string, value: string) =>
    `${keyPrefix}sign-in:${kind}:${createHash('sha256').update(value).digest('base64url')}`;
  return {
    async count(email: string, address: string): Promise<AttemptVerdict> {
      const waitMs = (await redis.eval(
        COUNT_ATTEMPT,
        2,
        key('email', email),
        key('address', address),
        limits.windowMs,
        limits.perEmail,
        limits.perAddress,
      )) as number;
      return waitMs > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000) } : { allowed: true };
    },
  };
}

export type SignInAttempts = ReturnType<typeof createSignInAttempts>;
