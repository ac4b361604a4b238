import type { EnvironmentDiff, EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import type {
  ApiKey,
  CreateApiKey,
  CreatedApiKey,
  OrganizationDetail,
  Project,
} from '@engage/contracts/http/admin.ts';
import type { components } from './schema.ts';

/**
 * The admin routes the console calls that docs/openapi.json does not publish yet, in the shape
 * openapi-typescript generates, typed from the contracts the gateway validates with. Each entry
 * goes once the route is in the OpenAPI document (the generated `paths` then types it).
 */

type Problem = components['schemas']['ProblemDocument'];
type Json<T> = { headers: Record<string, unknown>; content: { 'application/json': T } };
type Failure = { headers: Record<string, unknown>; content: { 'application/problem+json': Problem } };
type Operation<Path, Body, Answer, Query = never> = {
  parameters: { query?: Query; header?: never; cookie?: never } & ([Path] extends [never]
    ? { path?: never }
    : { path: Path });
  responses: {
    200: Json<Answer>;
    201: Json<Answer>;
    204: { headers: Record<string, unknown>; content?: never };
    default: Failure;
  };
} & ([Body] extends [never]
  ? { requestBody?: never }
  : { requestBody: { content: { 'application/json': Body } } });

export type Role = 'owner' | 'admin' | 'designer' | 'support' | 'viewer';
export interface Membership {
  organizationId: string;
  organizationName: string;
  role: Role;
}
export interface Session {
  operator: { id: string; email: string; displayName: string };
  memberships: Membership[];
  csrfToken: string;
}

export interface InterimAdminPaths {
  '/admin/v1/session': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: Operation<never, never, Session>;
    post: Operation<never, { email: string; password: string }, Session>;
    delete: Operation<never, never, never>;
  };
  '/admin/v1/organizations/{organizationId}': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: Operation<{ organizationId: string }, never, OrganizationDetail>;
  };
  '/admin/v1/projects/{projectId}': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: Operation<{ projectId: string }, never, Project>;
  };
  '/admin/v1/environments/{environmentId}/api-keys': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: Operation<{ environmentId: string }, never, { apiKeys: ApiKey[] }>;
    post: Operation<{ environmentId: string }, CreateApiKey, CreatedApiKey>;
  };
  '/admin/v1/api-keys/{apiKeyId}': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    delete: Operation<{ apiKeyId: string }, never, ApiKey>;
  };
  '/admin/v1/environments/{environmentId}/definition': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: Operation<{ environmentId: string }, never, EnvironmentFileInput>;
    put: Operation<{ environmentId: string }, EnvironmentFileInput, EnvironmentDiff, { dryRun?: boolean }>;
  };
  '/admin/v1/schemas/environment.json': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: Operation<never, never, Record<string, unknown>>;
  };
}
