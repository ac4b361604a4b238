import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Session } from '@engage/contracts/http/operators.ts';
import { problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { UNMATCHABLE_HASH, verifyPassword } from '../domain/password.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  findOperatorByEmail,
  insertSession,
  listMemberships,
  type StoredSession,
  touchSession,
} from '../store/operators.ts';
import type { SignInThrottle } from '../store/sign-in-failures.ts';

/** Operators' sessions: signing in with email and password, the session behind a cookie, signing out. */

export interface SessionSettings {
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
}

export interface SessionDeps {
  pool: Pool;
  throttle: SignInThrottle;
  sessions: SessionSettings;
}

export const signInFailed = () => problem('admin.sign_in_failed', 'The email or the password is wrong.');

export const notSignedIn = () =>
  problem('admin.unauthorized', 'Sign in, or send the admin token as a Bearer token.');

export const tooManyAttempts = (retryAfterSeconds: number) =>
  problem(
    'admin.too_many_sign_in_attempts',
    undefined,
    { retryAfterSeconds },
    {
      'retry-after': String(retryAfterSeconds),
    },
  );

/** Checks the password and opens a session; `sessionId` goes in the cookie and nowhere else. */
export async function signIn(
  deps: SessionDeps,
  input: { email: string; password: string; address: string },
): Promise<{ sessionId: string; session: Session }> {
  const email = input.email.trim().toLowerCase();
  const started = await deps.throttle.start(email, input.address);
  if (!started.allowed) throw tooManyAttempts(started.retryAfterSeconds);

  const operator = await findOperatorByEmail(deps.pool, email);
  // An unknown email costs a hash check too: the answer's timing does not tell which was wrong.
  const matches = await verifyPassword(input.password, operator?.passwordHash ?? UNMATCHABLE_HASH);
  // The attempt was counted as a failure when it started; only a right password takes it back.
  if (!operator || !matches) throw signInFailed();
  await deps.throttle.succeeded(started.attempt);

  // Sessions nobody presents again are cleared here, so the table holds only live ones and a few.
  await deleteExpiredSessions(deps.pool, deps.sessions.idleTimeoutMs);
  const sessionId = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  await insertSession(deps.pool, {
    sessionSha256: sessionDigest(sessionId),
    operatorId: operator.operatorId,
    csrfToken,
    absoluteTimeoutMs: deps.sessions.absoluteTimeoutMs,
  });
  const stored = { ...operator, csrfToken };
  return { sessionId, session: await describeSession(deps.pool, stored) };
}

/** The live session behind a cookie's value, marked used now; undefined when absent or expired. */
export async function findSession(
  deps: Pick<SessionDeps, 'pool' | 'sessions'>,
  sessionId: string | undefined,
): Promise<StoredSession | undefined> {
  if (!sessionId) return undefined;
  return touchSession(deps.pool, sessionDigest(sessionId), deps.sessions.idleTimeoutMs);
}

export async function describeSession(pool: Pool, session: StoredSession): Promise<Session> {
  return {
    operator: { id: session.operatorId, email: session.email, displayName: session.displayName },
    memberships: await listMemberships(pool, session.operatorId),
    csrfToken: session.csrfToken,
  };
}

export async function signOut(pool: Pool, sessionId: string | undefined): Promise<void> {
  if (sessionId) await deleteSession(pool, sessionDigest(sessionId));
}

/** Whether the `X-CSRF-Token` header carries the session's token (compared in constant time). */
export function csrfTokenMatches(session: StoredSession, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header), digest(session.csrfToken));
}

const sessionDigest = (sessionId: string) => createHash('sha256').update(sessionId).digest();
