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
import { z } from 'zod';
import { adminTokenCheck } from '../auth/admin-token.ts';
import { generateApiKey } from '../domain/api-key.ts';
import { applyEnvironmentFile, readEnvironmentFile } from '../environment-definition.ts';
import type { Upstreams } from '../forwarding/upstreams.ts';
import {
  findEnvironment,
  findEnvironmentContext,
  findOrganization,
  findProject,
  insertApiKey,
  insertOrganization,
  insertProject,
  listApiKeys,
  listOrganizations,
  revokeApiKey,
  updateOrganization,
} from '../store/control-plane.ts';

export interface AdminDeps {
  pool: Pool;
  /** The owners of the environment file's other sections, and the log for their failures. */
  upstreams: Upstreams;
  log: Logger;
  adminToken: string;
  /** Called after an environment's definition changed (to drop cached definitions). */
  onDefinitionChanged: (environmentId: string) => void;
}

const organizationParams = z.object({ organizationId: z.uuid() });
const projectParams = z.object({ projectId: z.uuid() });
const environmentParams = z.object({ environmentId: z.uuid() });
const apiKeyParams = z.object({ apiKeyId: z.uuid() });
const leaderboardParams = z.object({ environmentId: z.uuid(), leaderboardKey: z.string().min(1).max(200) });

const organizationNotFound = () => notFound('organization.not_found');
const environmentNotFound = () => notFound('environment.not_found');

/** The admin API under /admin/v1: the control plane, for operators and the `engage` CLI. */
export async function adminRoutes(scope: HttpApp, deps: AdminDeps): Promise<void> {
  const checkToken = adminTokenCheck(deps.adminToken);
  scope.addHook('onRequest', async (request, reply) => {
    checkToken(request.headers.authorization);
    reply.header('cache-control', 'no-store');
  });
  const { pool } = deps;

  scope.post(
    '/organizations',
    { schema: { body: CreateOrganizationSchema, response: { 201: OrganizationSchema } } },
    async (request, reply) => reply.code(201).send(await insertOrganization(pool, request.body)),
  );

  scope.get(
    '/organizations',
    { schema: { querystring: ListOrganizationsQuerySchema, response: { 200: OrganizationPageSchema } } },
    async (request) => listOrganizations(pool, request.query),
  );

  scope.get(
    '/organizations/:organizationId',
    { schema: { params: organizationParams, response: { 200: OrganizationDetailSchema } } },
    async (request) =>
      (await findOrganization(pool, request.params.organizationId)) ?? throwIt(organizationNotFound()),
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
      (await updateOrganization(pool, request.params.organizationId, request.body)) ??
      throwIt(organizationNotFound()),
  );

  scope.post(
    '/organizations/:organizationId/projects',
    { schema: { params: organizationParams, body: CreateProjectSchema, response: { 201: ProjectSchema } } },
    async (request, reply) => {
      const project = await insertProject(pool, request.params.organizationId, request.body.name);
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
      const generated = generateApiKey(environment.kind);
      const stored = await insertApiKey(pool, {
        environmentId: environment.environmentId,
        publicId: generated.publicId,
        secretSha256: generated.secretSha256,
        name: request.body?.name ?? null,
      });
      return reply.code(201).send({ ...stored, apiKey: generated.key });
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
      (await revokeApiKey(pool, request.params.apiKeyId)) ?? throwIt(notFound('api_key.not_found')),
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
      const diff = await applyEnvironmentFile(deps, environmentId, request.body, { dryRun });
      if (!diff) throw environmentNotFound();
      if (diff.changed && !dryRun) deps.onDefinitionChanged(environmentId);
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
      return settleOnQuery(deps, environment, request.params.leaderboardKey);
    },
  );

  scope.get('/schemas/environment.json', async (_request, reply) =>
    reply.type('application/schema+json').send(environmentJsonSchema()),
  );
}

const settleSandboxOnly = () => problem('leaderboard.settle_sandbox_only');

/**
 * Sandbox settlement on demand is the query service's (it owns periods and results): the gateway
 * hands it over with the environment's internal headers and answers the owner's refusals as its own.
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
