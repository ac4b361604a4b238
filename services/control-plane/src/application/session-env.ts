import { z } from 'zod';

const milliseconds = z.coerce.number().int().min(1);
const failures = z.coerce.number().int().min(1);

/** Settings of operators' console sessions and sign-in attempts. */
export const sessionEnv = z.object({
  /** A session unused this long is over. */
  SESSION_IDLE_TIMEOUT_MS: milliseconds.default(30 * 60 * 1000),
  /** A session is over this long after sign-in, however used. */
  SESSION_ABSOLUTE_TIMEOUT_MS: milliseconds.default(12 * 60 * 60 * 1000),
  /** `auto`: the cookie is `Secure` unless the gateway listens on loopback only. */
  SESSION_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** Failed sign-ins for one email before its addresses that failed wait SIGN_IN_FIRST_DELAY_MS. */
  SIGN_IN_FREE_FAILURES_PER_ACCOUNT: failures.default(5),
  /** Failed sign-ins from one client address, for any email, before it waits SIGN_IN_FIRST_DELAY_MS. */
  SIGN_IN_FREE_FAILURES_PER_ADDRESS: failures.default(20),
  /** The first wait; each further failure doubles it, up to SIGN_IN_MAX_DELAY_MS. */
  SIGN_IN_FIRST_DELAY_MS: milliseconds.default(1000),
  SIGN_IN_MAX_DELAY_MS: milliseconds.default(15 * 60 * 1000),
  /** How long an invitation to an organization may be accepted. */
  INVITATION_TTL_MS: milliseconds.default(7 * 24 * 60 * 60 * 1000),
  /** Failures are forgotten this long after the last one. */
  SIGN_IN_FAILURE_MEMORY_MS: milliseconds.default(24 * 60 * 60 * 1000),
});

export type SessionEnv = z.infer<typeof sessionEnv>;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function cookieSecure(env: SessionEnv & { HOST: string }): boolean {
  if (env.SESSION_COOKIE_SECURE !== 'auto') return env.SESSION_COOKIE_SECURE === 'true';
  return !LOOPBACK.has(env.HOST);
}
