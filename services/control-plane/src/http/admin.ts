import {
  type EnvironmentContext,
  INTERNAL_HEADERS,
  type ProblemItem,
  QueryBooleanSchema,
} from '@engage/contracts';
import {
  EnvironmentDiffSchema,
  EnvironmentFileSchema,
  environmentJsonSchema,
} from '@engage/contracts/environment-file.ts';
import {
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  CreateOrganizationSchema,
  CreateProjectSchema,
  ListOrganizationsQuerySchema,
  OrganizationDetailSchema,
  OrganizationPageSchema,
  OrganizationSchema,
  OrganizationUsageSchema,
  ProjectSchema,
  type SettledLeaderboardPeriod,
  SettledLeaderboardPeriodSchema,
  UpdateOrganizationSchema,
} from '@engage/contracts/http/admin.ts';
import {
  type HttpApp,
  injectContext,
  type Logger,
  notFound,
  Problem,
  problem,
  unexpectedProblem,
} from '@engage/kit';
import type { Pool } from '@engage/postgres';
import cookie from '@fastify/cookie';
import { z } from 'zod';
import { recordChange } from '../application/audited.ts';
import {
  changeOrganization,
  createApiKey,
  createOrganization,
  createProject,
  revokeKey,
} from '../application/control-plane-writes.ts';
import { recordDefinitionApply } from '../application/definition-applies.ts';
import { applyEnvironmentFile, readEnvironmentFile } from '../application/environment-file.ts';
import { organizationUsage } from '../application/organization-usage.ts';
import type { SessionDeps } from '../application/sessions.ts';
import type { StateOutbox } from '../application/state-outbox.ts';
import {
  findEnvironment,
  findEnvironmentContext,
  findOrganization,
  findProject,
  listApiKeys,
  listOrganizations,
} from '../store/control-plane.ts';
import type { Upstreams } from '../upstreams/upstreams.ts';
import { type WebhookRouteDeps, webhookRoutes } from '../webhooks/routes.ts';
import { callerOf, registerAdminAccess, requireRole } from './admin-access.ts';
import { definitionHistoryRoutes } from './admin-definition-history.ts';
import { recordDeniedWrites } from './admin-denials.ts';
import { invitationRoutes } from './admin-invitations.ts';
import { operatorRoutes, writeOrigin } from './admin-operators.ts';
import { adminPlayerSearchRoutes } from './admin-player-search.ts';
import { adminPlayerRoutes } from './admin-players.ts';
import { recentEventRoutes } from './admin-recent-events.ts';
import { sessionRoutes } from './admin-session.ts';

export interface AdminDeps {
  pool: Pool;
  /**
   * The gateway (players, usage, the event debugger's record) and the owners of the environment
   * file's other sections; the log for their failures.
   */
  upstreams: Upstreams;
  log: Logger;
  adminToken: string;
  /** The failed sign-in throttle and session timeouts. */
  signIn: Omit<SessionDeps, 'pool'>;
  /** Whether the session cookie carries `Secure`. */
  cookieSecure: boolean;
  /** How long an invitation to an organization may be accepted. */
  invitationTtlMs: number;
  /** Where API-key and definition changes are recorded for their topics. */
  outbox: StateOutbox;
  /** Webhook URL rules and the delivery worker's wake-up. */
  webhooks: Omit<WebhookRouteDeps, 'pool'>;
}

const organizationParams = z.object({ organizationId: z.uuid() });
const projectParams = z.object({ projectId: z.uuid() });
const environmentParams = z.object({ environmentId: z.uuid() });
const apiKeyParams = z.object({ apiKeyId: z.uuid() });
const leaderboardParams = z.object({ environmentId: z.uuid(), leaderboardKey: z.string().min(1).max(200) });

const organizationNotFound = () => notFound('organization.not_found');
const environmentNotFound = () => notFound('environment.not_found');

/**
 * The admin API under /admin/v1: the control plane, for operators (console sessions, by role) and
 * automation (the admin token). Every write is recorded in the audit log.
 */
export async function adminRoutes(scope: HttpApp, deps: AdminDeps): Promise<void> {
  const { pool } = deps;
  await scope.register(cookie);
  registerAdminAccess(scope, { pool, adminToken: deps.adminToken, sessions: deps.signIn.sessions });
  recordDeniedWrites(scope, { pool });
  sessionRoutes(scope, { pool, ...deps.signIn, cookieSecure: deps.cookieSecure });
  operatorRoutes(scope, { pool });
  invitationRoutes(scope, { pool, throttle: deps.signIn.throttle, ttlMs: deps.invitationTtlMs });
  adminPlayerRoutes(scope, { pool, upstreams: deps.upstreams, log: deps.log });
  adminPlayerSearchRoutes(scope, { pool, upstreams: deps.upstreams, log: deps.log });
  definitionHistoryRoutes(scope, { pool });
  recentEventRoutes(scope, deps);
  webhookRoutes(scope, { pool, ...deps.webhooks });

  scope.post(
    '/organizations',
    { schema: { body: CreateOrganizationSchema, response: { 201: OrganizationSchema } } },
    async (request, reply) =>
      reply.code(201).send(await createOrganization(pool, deps.outbox, writeOrigin(request), request.body)),
  );

  scope.get(
    '/organizations',
    { schema: { querystring: ListOrganizationsQuerySchema, response: { 200: OrganizationPageSchema } } },
    async (request) => {
      const { actor } = callerOf(request);
      return listOrganizations(pool, request.query, actor.kind === 'operator' ? actor.operatorId : undefined);
    },
  );

  scope.get(
    '/organizations/:organizationId',
    { schema: { params: organizationParams, response: { 200: OrganizationDetailSchema } } },
    async (request) =>
      (await findOrganization(pool, request.params.organizationId)) ?? throwIt(organizationNotFound()),
  );

  scope.get(
    '/organizations/:organizationId/usage',
    { schema: { params: organizationParams, response: { 200: OrganizationUsageSchema } } },
    async (request) =>
      (await organizationUsage(deps, request.params.organizationId)) ?? throwIt(organizationNotFound()),
  );

  scope.patch(
    '/organizations/:organizationId',
    {
      schema: {
        params: organizationParams,
        body: UpdateOrganizationSchema,
        response: { 200: OrganizationSchema },
      },
    },
    async (request) =>
      (await changeOrganization(
        pool,
        deps.outbox,
        writeOrigin(request),
        request.params.organizationId,
        request.body,
      )) ?? throwIt(organizationNotFound()),
  );

  scope.post(
    '/organizations/:organizationId/projects',
    { schema: { params: organizationParams, body: CreateProjectSchema, response: { 201: ProjectSchema } } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const project = await createProject(pool, writeOrigin(request), organizationId, request.body.name);
      return reply.code(201).send(project ?? throwIt(organizationNotFound()));
    },
  );

  scope.get(
    '/projects/:projectId',
    { schema: { params: projectParams, response: { 200: ProjectSchema } } },
    async (request) =>
      (await findProject(pool, request.params.projectId)) ?? throwIt(notFound('project.not_found')),
  );

  scope.post(
    '/environments/:environmentId/api-keys',
    {
      schema: { params: environmentParams, body: CreateApiKeySchema, response: { 201: CreatedApiKeySchema } },
    },
    async (request, reply) => {
      const environment = await findEnvironment(pool, request.params.environmentId);
      if (!environment) throw environmentNotFound();
      const created = await createApiKey(pool, deps.outbox, writeOrigin(request), {
        organizationId: callerOf(request).organizationId!,
        environmentId: environment.environmentId,
        kind: environment.kind,
        name: request.body?.name ?? null,
      });
      return reply.code(201).send(created);
    },
  );

  scope.get(
    '/environments/:environmentId/api-keys',
    {
      schema: { params: environmentParams, response: { 200: z.object({ apiKeys: z.array(ApiKeySchema) }) } },
    },
    async (request) => {
      if (!(await findEnvironment(pool, request.params.environmentId))) throw environmentNotFound();
      return { apiKeys: await listApiKeys(pool, request.params.environmentId) };
    },
  );

  scope.delete(
    '/api-keys/:apiKeyId',
    { schema: { params: apiKeyParams, response: { 200: ApiKeySchema } } },
    async (request) =>
      (await revokeKey(pool, deps.outbox, writeOrigin(request), request.params.apiKeyId)) ??
      throwIt(notFound('api_key.not_found')),
  );

  scope.get(
    '/environments/:environmentId/definition',
    { schema: { params: environmentParams } },
    async (request) =>
      (await readEnvironmentFile(deps, request.params.environmentId)) ?? throwIt(environmentNotFound()),
  );

  scope.put(
    '/environments/:environmentId/definition',
    {
      schema: {
        params: environmentParams,
        querystring: z.object({ dryRun: QueryBooleanSchema.optional() }),
        body: EnvironmentFileSchema,
        response: { 200: EnvironmentDiffSchema },
      },
    },
    async (request) => {
      const { environmentId } = request.params;
      const dryRun = request.query.dryRun ?? false;
      const current = await findEnvironment(pool, environmentId);
      if (!current) throw environmentNotFound();
      // Discovery is the admins' (it lets players' traffic define events): content is the designers'.
      if (request.body.discovery !== undefined && request.body.discovery !== current.discovery) {
        requireRole(request, 'admin');
      }
      const diff = await applyEnvironmentFile(deps, environmentId, request.body, { dryRun });
      if (!diff) throw environmentNotFound();
      if (diff.changed && !dryRun) {
        await recordDefinitionApply(pool, deps.outbox, writeOrigin(request), {
          organizationId: callerOf(request).organizationId!,
          environmentKind: current.kind,
          diff,
        });
      }
      return diff;
    },
  );

  scope.post(
    '/environments/:environmentId/leaderboards/:leaderboardKey/settle',
    { schema: { params: leaderboardParams, response: { 200: SettledLeaderboardPeriodSchema } } },
    async (request) => {
      const environment = await findEnvironmentContext(pool, request.params.environmentId);
      if (!environment) throw environmentNotFound();
      if (environment.environmentKind !== 'Sandbox') throw settleSandboxOnly();
      const settled = await settleOnQuery(deps, environment, request.params.leaderboardKey);
      const { organizationId, environmentId } = environment;
      await recordChange(pool, writeOrigin(request), {
        organizationId,
        targets: { organizationId, environmentId, leaderboardKey: request.params.leaderboardKey },
        after: settled,
      });
      return settled;
    },
  );

  scope.get('/schemas/environment.json', async (_request, reply) =>
    reply.type('application/schema+json').send(environmentJsonSchema()),
  );
}

const settleSandboxOnly = () => problem('leaderboard.settle_sandbox_only');

/**
 * Sandbox settlement on demand is the query service's (it owns periods and results): the control
 * plane hands it over with the environment's internal headers and answers the owner's refusals as its own.
 */
async function settleOnQuery(
  deps: AdminDeps,
  env: EnvironmentContext,
  leaderboardKey: string,
): Promise<SettledLeaderboardPeriod> {
  let answer: { status: number; body: unknown };
  try {
    const response = await deps.upstreams.query.request({
      method: 'POST',
      path: `/internal/v1/environments/${env.environmentId}/leaderboards/${encodeURIComponent(leaderboardKey)}/settle`,
      headers: injectContext({
        [INTERNAL_HEADERS.organizationId]: env.organizationId,
        [INTERNAL_HEADERS.environmentId]: env.environmentId,
        [INTERNAL_HEADERS.environmentKind]: env.environmentKind,
      }),
    });
    const text = await response.body.text();
    answer = { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
  } catch (err) {
    deps.log.error({ err, leaderboardKey }, 'the query service did not answer a settle');
    throw unexpectedProblem();
  }
  if (answer.status === 200) return answer.body as SettledLeaderboardPeriod;
  const errors = (answer.body as { errors?: ProblemItem[] } | undefined)?.errors;
  if (answer.status >= 500 || !Array.isArray(errors) || errors.length === 0) {
    deps.log.error({ status: answer.status, leaderboardKey }, 'the query service failed a settle');
    throw unexpectedProblem();
  }
  throw new Problem(answer.status, errors);
}

function throwIt(error: Error): never {
  throw error;
}
