import type { Role } from '@engage/contracts/http/operators.ts';
import { type HttpApp, notFound, problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { FastifyRequest } from 'fastify';
import { csrfTokenMatches, findSession, notSignedIn, type SessionSettings } from '../application/sessions.ts';
import { ADMIN_ROUTE_RULES, isWrite, type RouteRule, roleSatisfies, routeKey } from '../domain/roles.ts';
import type { Actor } from '../store/audit-log.ts';
import { type OrganizationScope, organizationOf } from '../store/control-plane.ts';
import { findRole, type StoredSession } from '../store/operators.ts';
import { adminTokenCheck } from './admin-token.ts';

/** The session cookie: a random id, the only thing the browser holds. */
export const SESSION_COOKIE = 'engage_session';

export interface AdminAccessDeps {
  pool: Pool;
  adminToken: string;
  sessions: SessionSettings;
}

export interface AdminCaller {
  actor: Actor;
  /** The operator's session (absent for the admin token). */
  session?: StoredSession;
  /** The organization the route names, once resolved. */
  organizationId?: string;
  /** The operator's role in that organization. */
  role?: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    adminCaller?: AdminCaller;
  }
  interface FastifyContextConfig {
    adminRule?: RouteRule;
    adminRoute?: string;
  }
}

export const forbidden = (requiredRole: RouteRule) =>
  problem('admin.forbidden', `This needs the ${requiredRole} role in the organization.`, {
    requiredRole,
  });

const csrfFailed = () =>
  problem(
    'admin.csrf_failed',
    'A write made with the session cookie needs the session’s X-CSRF-Token header.',
  );

/**
 * Who may call each admin route: every route registered in the scope must have a rule in
 * ADMIN_ROUTE_RULES (startup fails otherwise). A request is authenticated by the admin token
 * (`Authorization: Bearer`, full rights) or the session cookie (writes also need `X-CSRF-Token`),
 * then authorized against the route's rule with the operator's role in the organization the route
 * names (resolved after the parameters are validated).
 */
export function registerAdminAccess(scope: HttpApp, deps: AdminAccessDeps): void {
  const checkToken = adminTokenCheck(deps.adminToken);

  scope.addHook('onRoute', (route) => {
    const path = route.url.slice(route.prefix.length) || '/';
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const key = routeKey(method === 'HEAD' ? 'GET' : method, path);
      const rule = ADMIN_ROUTE_RULES[key];
      if (!rule) throw new Error(`admin route ${key} has no rule in ADMIN_ROUTE_RULES`);
      route.config = { ...route.config, adminRule: rule, adminRoute: path };
    }
  });

  scope.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (ruleOf(request) === 'public') return;
    if (request.headers.authorization !== undefined) {
      checkToken(request.headers.authorization);
      request.adminCaller = { actor: { kind: 'admin-token' } };
      return;
    }
    const session = await findSession(deps, request.cookies[SESSION_COOKIE]);
    if (!session) throw notSignedIn();
    if (isWrite(request.method) && !csrfTokenMatches(session, request.headers['x-csrf-token'])) {
      throw csrfFailed();
    }
    request.adminCaller = {
      actor: { kind: 'operator', operatorId: session.operatorId, email: session.email },
      session,
    };
  });

  scope.addHook('preHandler', async (request) => {
    const rule = ruleOf(request);
    if (!rule) throw new Error(`admin route ${request.url} reached without a rule`);
    const caller = request.adminCaller;
    if (rule === 'public' || !caller) return;
    const scopeOfRoute = scopeOf(request.params as Record<string, string>);
    if (scopeOfRoute) {
      caller.organizationId = await organizationOf(deps.pool, scopeOfRoute);
      if (!caller.organizationId) throw notFoundFor(scopeOfRoute);
    }
    if (caller.actor.kind === 'admin-token' || rule === 'signed-in') return;
    if (rule === 'admin-token' || !caller.organizationId) throw forbidden(rule);
    caller.role = await findRole(deps.pool, caller.actor.operatorId, caller.organizationId);
    if (!caller.role || !roleSatisfies(caller.role, rule)) throw forbidden(rule);
  });
}

/** Refuses the request unless its caller holds `role` (or the admin token) in the route's organization. */
export function requireRole(request: FastifyRequest, role: Role): void {
  const caller = request.adminCaller;
  if (caller?.actor.kind === 'admin-token') return;
  if (!caller?.role || !roleSatisfies(caller.role, role)) throw forbidden(role);
}

export function callerOf(request: FastifyRequest): AdminCaller {
  if (!request.adminCaller) throw new Error('admin route reached without a caller');
  return request.adminCaller;
}

/** The route's path as registered under /admin/v1, for the audit log. */
export const adminRouteOf = (request: FastifyRequest) =>
  request.routeOptions.config.adminRoute ?? request.url;

const ruleOf = (request: FastifyRequest): RouteRule | undefined => request.routeOptions.config.adminRule;

function scopeOf(params: Record<string, string> | undefined): OrganizationScope | undefined {
  if (params?.organizationId) return { organizationId: params.organizationId };
  if (params?.projectId) return { projectId: params.projectId };
  if (params?.environmentId) return { environmentId: params.environmentId };
  if (params?.apiKeyId) return { apiKeyId: params.apiKeyId };
  if (params?.webhookId) return { webhookId: params.webhookId };
  return undefined;
}

function notFoundFor(scope: OrganizationScope) {
  if ('organizationId' in scope) return notFound('organization.not_found', 'No organization with that id.');
  if ('projectId' in scope) return notFound('project.not_found', 'No project with that id.');
  if ('environmentId' in scope) return notFound('environment.not_found', 'No environment with that id.');
  if ('apiKeyId' in scope) return notFound('api_key.not_found', 'No API key with that id.');
  return notFound('webhook.not_found', 'No webhook endpoint with that id.');
}
