import type { ProblemCode } from '@engage/contracts';
import { EnvironmentDiffSchema, EnvironmentFileSchema } from '@engage/contracts/environment-file.ts';
import {
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  CreateOrganizationSchema,
  CreateProjectSchema,
  OrganizationDetailSchema,
  OrganizationPageSchema,
  OrganizationSchema,
  OrganizationUsageSchema,
  ProjectSchema,
  UpdateOrganizationSchema,
} from '@engage/contracts/http/admin.ts';
import { problemResponses } from '@engage/contracts/http/openapi-problem-responses.ts';
import { z } from 'zod';

/**
 * The control plane in the OpenAPI document: organizations, their usage, projects, API keys and an
 * environment's definition (the environment file). They take an operator's session cookie (writes
 * with `X-CSRF-Token`) or the admin token; the role each needs is in its summary.
 */

type JsonSchema = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (description: string, id: string) => ({
  description,
  content: { 'application/json': { schema: ref(id) } },
});
const body = (id: string) => ({ required: true, content: { 'application/json': { schema: ref(id) } } });
const uuid = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
});
const either = [{ sessionCookie: [] }, { adminToken: [] }];
const adminTokenOnly = [{ adminToken: [] }];

const SIGNED_IN = [
  'validation.request',
  'admin.unauthorized',
  'admin.forbidden',
  'admin.csrf_failed',
] as const;
const refusals = (...more: ProblemCode[]) => problemResponses([...SIGNED_IN, ...more, 'server.unexpected']);

export function controlPlaneOperations(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
} {
  const input = z.toJSONSchema(
    z.object({
      a: CreateOrganizationSchema.meta({ id: 'AdminCreateOrganization' }),
      b: UpdateOrganizationSchema.meta({ id: 'AdminUpdateOrganization' }),
      c: CreateProjectSchema.meta({ id: 'AdminCreateProject' }),
      d: CreateApiKeySchema.meta({ id: 'AdminCreateApiKey' }),
      e: EnvironmentFileSchema,
    }),
    { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' },
  ) as { $defs?: Record<string, JsonSchema> };
  const output = z.toJSONSchema(
    z.object({
      a: OrganizationSchema,
      b: OrganizationPageSchema,
      c: OrganizationDetailSchema,
      d: OrganizationUsageSchema,
      e: ProjectSchema,
      f: ApiKeySchema,
      g: CreatedApiKeySchema,
      h: z.object({ apiKeys: z.array(ApiKeySchema) }).meta({ id: 'AdminApiKeyList' }),
      i: EnvironmentDiffSchema,
    }),
    { io: 'output', target: 'draft-2020-12' },
  ) as { $defs?: Record<string, JsonSchema> };
  // The environment file's inner schemas keep their input form apart from the /v1 answers' forms.
  const schemas = JSON.parse(
    JSON.stringify({ ...output.$defs, ...input.$defs }).replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as Record<string, JsonSchema>;
  return { paths: paths(), schemas };
}

function paths(): Record<string, Record<string, unknown>> {
  const organization = uuid('organizationId');
  const environment = uuid('environmentId');
  return {
    '/admin/v1/organizations': {
      get: {
        operationId: 'listOrganizations',
        tags: ['Admin'],
        summary:
          'A page of organizations, oldest first: all of them for the admin token, an operator’s own for a session.',
        security: either,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
          {
            name: 'after',
            in: 'query',
            description: "The previous page's `nextCursor`.",
            schema: { type: 'string', format: 'uuid' },
          },
          {
            name: 'name',
            in: 'query',
            description: 'Only the organization of this name.',
            schema: { type: 'string' },
          },
        ],
        responses: { '200': json('OK', 'AdminOrganizationPage'), ...refusals() },
      },
      post: {
        operationId: 'createOrganization',
        tags: ['Admin'],
        summary: 'Creates an organization (admin token only).',
        security: adminTokenOnly,
        requestBody: body('AdminCreateOrganization'),
        responses: { '201': json('Created', 'AdminOrganization'), ...refusals() },
      },
    },
    '/admin/v1/organizations/{organizationId}': {
      get: {
        operationId: 'getOrganization',
        tags: ['Admin'],
        summary: 'An organization with its projects and their Sandbox and Live environments (viewer).',
        security: either,
        parameters: [organization],
        responses: { '200': json('OK', 'AdminOrganizationDetail'), ...refusals('organization.not_found') },
      },
      patch: {
        operationId: 'updateOrganization',
        tags: ['Admin'],
        summary:
          "Changes an organization's billing status or Live monthly active players cap (admin token only).",
        security: adminTokenOnly,
        parameters: [organization],
        requestBody: body('AdminUpdateOrganization'),
        responses: { '200': json('OK', 'AdminOrganization'), ...refusals('organization.not_found') },
      },
    },
    '/admin/v1/organizations/{organizationId}/usage': {
      get: {
        operationId: 'getOrganizationUsage',
        tags: ['Admin'],
        summary:
          "The organization's usage against its limits now: Live monthly active players against the cap, each Sandbox's players this month and events today, and requests refused today by the in-flight limit (viewer).",
        security: either,
        parameters: [organization],
        responses: { '200': json('OK', 'AdminOrganizationUsage'), ...refusals('organization.not_found') },
      },
    },
    '/admin/v1/organizations/{organizationId}/projects': {
      post: {
        operationId: 'createProject',
        tags: ['Admin'],
        summary: 'Creates a project with its Sandbox and Live environments (admin).',
        security: either,
        parameters: [organization],
        requestBody: body('AdminCreateProject'),
        responses: { '201': json('Created', 'AdminProject'), ...refusals('organization.not_found') },
      },
    },
    '/admin/v1/projects/{projectId}': {
      get: {
        operationId: 'getProject',
        tags: ['Admin'],
        summary: 'A project with its two environments (viewer).',
        security: either,
        parameters: [uuid('projectId')],
        responses: { '200': json('OK', 'AdminProject'), ...refusals('project.not_found') },
      },
    },
    '/admin/v1/environments/{environmentId}/api-keys': {
      get: {
        operationId: 'listApiKeys',
        tags: ['Admin'],
        summary: "The environment's API keys with when each was last used; never their secrets (viewer).",
        security: either,
        parameters: [environment],
        responses: { '200': json('OK', 'AdminApiKeyList'), ...refusals('environment.not_found') },
      },
      post: {
        operationId: 'createApiKey',
        tags: ['Admin'],
        summary:
          'Creates an API key of the environment; the answer holds its secret, shown this once (admin).',
        security: either,
        parameters: [environment],
        requestBody: { required: false, content: body('AdminCreateApiKey').content },
        responses: { '201': json('Created', 'AdminCreatedApiKey'), ...refusals('environment.not_found') },
      },
    },
    '/admin/v1/api-keys/{apiKeyId}': {
      delete: {
        operationId: 'revokeApiKey',
        tags: ['Admin'],
        summary: 'Revokes an API key: calls with it are refused from now on (admin).',
        security: either,
        parameters: [uuid('apiKeyId')],
        responses: { '200': json('Revoked', 'AdminApiKey'), ...refusals('api_key.not_found') },
      },
    },
    '/admin/v1/environments/{environmentId}/definition': {
      get: {
        operationId: 'getEnvironmentDefinition',
        tags: ['Admin'],
        summary:
          "The environment's definition as an environment file: discovery, events and every section (viewer).",
        security: either,
        parameters: [environment],
        responses: { '200': json('OK', 'EnvironmentFile'), ...refusals('environment.not_found') },
      },
      put: {
        operationId: 'applyEnvironmentDefinition',
        tags: ['Admin'],
        summary:
          'Applies an environment file and answers the difference; with `dryRun=true` only answers it (designer; changing discovery: admin).',
        security: either,
        parameters: [
          environment,
          {
            name: 'dryRun',
            in: 'query',
            description: 'Answer the difference the file would make, changing nothing.',
            schema: { type: 'boolean', default: false },
          },
        ],
        requestBody: body('EnvironmentFile'),
        responses: {
          '200': json('The difference (applied unless dryRun).', 'EnvironmentDiff'),
          ...refusals(
            'environment.not_found',
            'definition.unknown_event',
            'definition.unknown_property',
            'definition.unknown_mission',
          ),
        },
      },
    },
    '/admin/v1/schemas/environment.json': {
      get: {
        operationId: 'getEnvironmentFileSchemaSignedIn',
        tags: ['Schemas'],
        summary:
          'The JSON Schema of the environment file, as /schemas/environment.json serves it (signed in).',
        security: either,
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/schema+json': { schema: { type: 'object' } } },
          },
          ...problemResponses(['admin.unauthorized']),
        },
      },
    },
  };
}
