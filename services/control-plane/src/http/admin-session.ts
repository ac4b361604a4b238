import { SessionSchema, SignInSchema } from '@engage/contracts/http/operators.ts';
import type { HttpApp } from '@engage/kit';
import type { FastifyReply } from 'fastify';
import {
  describeSession,
  findSession,
  notSignedIn,
  type SessionDeps,
  signIn,
  signOut,
} from '../application/sessions.ts';
import { SESSION_COOKIE } from './admin-access.ts';

export interface SessionRouteDeps extends SessionDeps {
  /** Whether the cookie carries `Secure` (browsers then send it over HTTPS only). */
  cookieSecure: boolean;
}

/** `/admin/v1/session`: signing in and out of the console; the session lives in Postgres behind a cookie. */
export function sessionRoutes(scope: HttpApp, deps: SessionRouteDeps): void {
  const cookie = { httpOnly: true, sameSite: 'strict', path: '/', secure: deps.cookieSecure } as const;

  scope.post(
    '/session',
    { schema: { body: SignInSchema, response: { 200: SessionSchema } } },
    async (request, reply) => {
      const { sessionId, session } = await signIn(deps, { ...request.body, address: request.ip });
      reply.setCookie(SESSION_COOKIE, sessionId, {
        ...cookie,
        maxAge: Math.floor(deps.sessions.absoluteTimeoutMs / 1000),
      });
      return session;
    },
  );

  scope.get('/session', { schema: { response: { 200: SessionSchema } } }, async (request, reply) => {
    const session = await findSession(deps, request.cookies[SESSION_COOKIE]);
    if (!session) {
      clearCookie(reply);
      throw notSignedIn();
    }
    return describeSession(deps.pool, session);
  });

  scope.delete('/session', async (request, reply) => {
    await signOut(deps.pool, request.cookies[SESSION_COOKIE]);
    clearCookie(reply);
    return reply.code(204).send();
  });

  const clearCookie = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, cookie);
}
