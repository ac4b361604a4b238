import { z } from 'zod';

const milliseconds = z.coerce.number().int().min(1);
const attempts = z.coerce.number().int().min(1);

/** Settings of operators' console sessions and sign-in attempts. */
export const sessionEnv = z.object({
  /** A session unused this long is over. */
  SESSION_IDLE_TIMEOUT_MS: milliseconds.default(30 * 60 * 1000),
  /** A session is over this long after sign-in, however used. */
  SESSION_ABSOLUTE_TIMEOUT_MS: milliseconds.default(12 * 60 * 60 * 1000),
  /** `auto`: the cookie is `Secure` unless the gateway listens on loopback only. */
  SESSION_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** Sign-in attempts for one email within SIGN_IN_WINDOW_MS, from any address. */
  SIGN_IN_MAX_ATTEMPTS_PER_EMAIL: attempts.default(10),
  /** Sign-in attempts from one client address within SIGN_IN_WINDOW_MS, for any email. */
  SIGN_IN_MAX_ATTEMPTS_PER_ADDRESS: attempts.default(50),
  SIGN_IN_WINDOW_MS: milliseconds.default(15 * 60 * 1000),
});

export type SessionEnv = z.infer<typeof sessionEnv>;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function cookieSecure(env: SessionEnv & { HOST: string }): boolean {
  if (env.SESSION_COOKIE_SECURE !== 'auto') return env.SESSION_COOKIE_SECURE === 'true';
  return !LOOPBACK.has(env.HOST);
}
