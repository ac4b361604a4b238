import { randomUUID } from 'node:crypto';
import type { EnvironmentContext, EnvironmentKind } from '@engage/contracts';
import type {
  ApiKey,
  BillingStatus,
  Environment,
  Organization,
  OrganizationDetail,
  OrganizationPage,
  Project,
} from '@engage/contracts/http/admin.ts';
import { type Pool, type PoolClient, withTransaction } from '@engage/postgres';

/** SQL of the control plane: organizations, projects with their two environments, API keys. */

/** A pool, or a client in a transaction the caller holds. */
type Queryable = Pool | PoolClient;

interface OrganizationRow {
  organization_id: string;
  name: string;
  billing_status: BillingStatus;
  live_mau_cap: number | null;
  created_at: Date;
  updated_at: Date;
}

const toOrganization = (row: OrganizationRow): Organization => ({
  organizationId: row.organization_id,
  name: row.name,
  billingStatus: row.billing_status,
  liveMonthlyActivePlayersCap: row.live_mau_cap,
  createdAtUtc: row.created_at.toISOString(),
  updatedAtUtc: row.updated_at.toISOString(),
});

export async function insertOrganization(
  pool: Queryable,
  input: { name: string; billingStatus: BillingStatus; liveMonthlyActivePlayersCap: number | null },
): Promise<Organization> {
  const { rows } = await pool.query<OrganizationRow>(
    `INSERT INTO organizations (organization_id, name, billing_status, live_mau_cap)
     VALUES ($1, $2, $3, $4) RETURNING *`,
    [randomUUID(), input.name, input.billingStatus, input.liveMonthlyActivePlayersCap],
  );
  return toOrganization(rows[0]!);
}

/**
 * One page of organizations, oldest first; `after` is the last organization of the previous page.
 * With `memberId`, only the organizations that operator is a member of.
 */
export async function listOrganizations(
  pool: Queryable,
  page: { limit: number; after?: string; name?: string },
  memberId?: string,
): Promise<OrganizationPage> {
  const { rows } = await pool.query<OrganizationRow>(
    `SELECT * FROM organizations
      WHERE ($2::uuid IS NULL
             OR (created_at, organization_id) >
                (SELECT created_at, organization_id FROM organizations WHERE organization_id = $2))
        AND ($3::text IS NULL OR name = $3)
        AND ($4::uuid IS NULL
             OR organization_id IN (SELECT organization_id FROM memberships WHERE operator_id = $4))
      ORDER BY created_at, organization_id
      LIMIT $1`,
    [page.limit + 1, page.after ?? null, page.name ?? null, memberId ?? null],
  );
  const organizations = rows.slice(0, page.limit).map(toOrganization);
  const nextCursor = rows.length > page.limit ? organizations.at(-1)!.organizationId : null;
  return { organizations, nextCursor };
}

export async function findOrganization(
  pool: Queryable,
  organizationId: string,
): Promise<OrganizationDetail | undefined> {
  const { rows } = await pool.query<OrganizationRow>(
    'SELECT * FROM organizations WHERE organization_id = $1',
    [organizationId],
  );
  if (!rows[0]) return undefined;
  const projects = await projectsWhere(pool, 'p.organization_id = $1', [organizationId]);
  return { ...toOrganization(rows[0]), projects };
}

export async function updateOrganization(
  pool: Queryable,
  organizationId: string,
  patch: {
    billingStatus?: BillingStatus | undefined;
    liveMonthlyActivePlayersCap?: number | null | undefined;
  },
): Promise<Organization | undefined> {
  const { rows } = await pool.query<OrganizationRow>(
    `UPDATE organizations SET
       billing_status = COALESCE($2, billing_status),
       live_mau_cap = CASE WHEN $3 THEN $4::integer ELSE live_mau_cap END,
       updated_at = now()
     WHERE organization_id = $1 RETURNING *`,
    [
      organizationId,
      patch.billingStatus ?? null,
      patch.liveMonthlyActivePlayersCap !== undefined,
      patch.liveMonthlyActivePlayersCap ?? null,
    ],
  );
  return rows[0] ? toOrganization(rows[0]) : undefined;
}

interface ProjectRow {
  project_id: string;
  organization_id: string;
  name: string;
  created_at: Date;
  environments: { environment_id: string; kind: EnvironmentKind; discovery: boolean }[];
}

const toProject = (row: ProjectRow): Project => {
  const environment = (kind: EnvironmentKind): Environment => {
    const env = row.environments.find((e) => e.kind === kind)!;
    return { environmentId: env.environment_id, projectId: row.project_id, kind, discovery: env.discovery };
  };
  return {
    projectId: row.project_id,
    organizationId: row.organization_id,
    name: row.name,
    createdAtUtc: new Date(row.created_at).toISOString(),
    sandbox: environment('Sandbox'),
    live: environment('Live'),
  };
};

async function projectsWhere(pool: Queryable, where: string, params: unknown[]): Promise<Project[]> {
  const { rows } = await pool.query<ProjectRow>(
    `SELECT p.project_id, p.organization_id, p.name, p.created_at,
            json_agg(json_build_object('environment_id', e.environment_id, 'kind', e.kind,
                                       'discovery', e.discovery)) AS environments
     FROM projects p JOIN environments e USING (project_id)
     WHERE ${where}
     GROUP BY p.project_id ORDER BY p.created_at, p.project_id`,
    params,
  );
  return rows.map(toProject);
}

export async function findProject(pool: Queryable, projectId: string): Promise<Project | undefined> {
  const [project] = await projectsWhere(pool, 'p.project_id = $1', [projectId]);
  return project;
}

/** A project and its Sandbox and Live environments, in one transaction. Undefined: no such organization. */
export async function insertProject(
  pool: Pool,
  organizationId: string,
  name: string,
): Promise<Project | undefined> {
  const projectId = await withTransaction(pool, (client) => insertProjectIn(client, organizationId, name));
  return projectId ? findProject(pool, projectId) : undefined;
}

/** insertProject in the caller's transaction; answers the new project's id (undefined: no such organization). */
export async function insertProjectIn(
  client: PoolClient,
  organizationId: string,
  name: string,
): Promise<string | undefined> {
  const projectId = randomUUID();
  const { rowCount } = await client.query(
    `INSERT INTO projects (project_id, organization_id, name)
     SELECT $1, organization_id, $3 FROM organizations WHERE organization_id = $2`,
    [projectId, organizationId, name],
  );
  if (rowCount === 0) return undefined;
  await client.query(
    `INSERT INTO environments (environment_id, project_id, kind)
     VALUES ($1, $2, 'Sandbox'), ($3, $2, 'Live')`,
    [randomUUID(), projectId, randomUUID()],
  );
  return projectId;
}

export async function findEnvironment(
  pool: Queryable,
  environmentId: string,
): Promise<Environment | undefined> {
  const { rows } = await pool.query<{ project_id: string; kind: EnvironmentKind; discovery: boolean }>(
    'SELECT project_id, kind, discovery FROM environments WHERE environment_id = $1',
    [environmentId],
  );
  const row = rows[0];
  return row
    ? { environmentId, projectId: row.project_id, kind: row.kind, discovery: row.discovery }
    : undefined;
}

interface ApiKeyRow {
  api_key_id: string;
  environment_id: string;
  kind: EnvironmentKind;
  public_id: string;
  name: string | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  apiKeyId: row.api_key_id,
  environmentId: row.environment_id,
  kind: row.kind,
  publicId: row.public_id,
  name: row.name,
  createdAtUtc: row.created_at.toISOString(),
  revokedAtUtc: row.revoked_at?.toISOString() ?? null,
  lastUsedAtUtc: row.last_used_at?.toISOString() ?? null,
});

const API_KEY_COLUMNS = `k.api_key_id, k.environment_id, e.kind, k.public_id, k.name, k.created_at,
                         k.revoked_at, k.last_used_at`;

export async function insertApiKey(
  pool: Queryable,
  input: { environmentId: string; publicId: string; secretSha256: Buffer; name: string | null },
): Promise<ApiKey> {
  const { rows } = await pool.query<ApiKeyRow>(
    `WITH k AS (
       INSERT INTO api_keys (api_key_id, environment_id, public_id, secret_sha256, name)
       VALUES ($1, $2, $3, $4, $5) RETURNING *)
     SELECT ${API_KEY_COLUMNS} FROM k JOIN environments e USING (environment_id)`,
    [randomUUID(), input.environmentId, input.publicId, input.secretSha256, input.name],
  );
  return toApiKey(rows[0]!);
}

export async function listApiKeys(pool: Queryable, environmentId: string): Promise<ApiKey[]> {
  const { rows } = await pool.query<ApiKeyRow>(
    `SELECT ${API_KEY_COLUMNS} FROM api_keys k JOIN environments e USING (environment_id)
     WHERE k.environment_id = $1 ORDER BY k.created_at, k.api_key_id`,
    [environmentId],
  );
  return rows.map(toApiKey);
}

/** Revokes a key (revoking again keeps the first revocation time). */
export async function revokeApiKey(pool: Queryable, apiKeyId: string): Promise<ApiKey | undefined> {
  const { rows } = await pool.query<ApiKeyRow>(
    `WITH k AS (
       UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE api_key_id = $1 RETURNING *)
     SELECT ${API_KEY_COLUMNS} FROM k JOIN environments e USING (environment_id)`,
    [apiKeyId],
  );
  return rows[0] ? toApiKey(rows[0]) : undefined;
}

/** What authenticating a key needs, by its public id. `environment` is null when it did not load. */
export interface KeyRecord {
  apiKeyId: string;
  secretSha256: Buffer;
  revoked: boolean;
  environment: {
    environmentId: string;
    kind: EnvironmentKind;
    organizationId: string;
    billingStatus: BillingStatus;
  } | null;
}

export async function findKeyRecord(pool: Queryable, publicId: string): Promise<KeyRecord | undefined> {
  const { rows } = await pool.query<{
    api_key_id: string;
    secret_sha256: Buffer;
    revoked_at: Date | null;
    environment_id: string | null;
    kind: EnvironmentKind | null;
    organization_id: string | null;
    billing_status: BillingStatus | null;
  }>(
    `SELECT k.api_key_id, k.secret_sha256, k.revoked_at, e.environment_id, e.kind, o.organization_id,
            o.billing_status
     FROM api_keys k
     LEFT JOIN environments e ON e.environment_id = k.environment_id
     LEFT JOIN projects p ON p.project_id = e.project_id
     LEFT JOIN organizations o ON o.organization_id = p.organization_id
     WHERE k.public_id = $1`,
    [publicId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    apiKeyId: row.api_key_id,
    secretSha256: row.secret_sha256,
    revoked: row.revoked_at !== null,
    environment:
      row.environment_id && row.kind && row.organization_id && row.billing_status
        ? {
            environmentId: row.environment_id,
            kind: row.kind,
            organizationId: row.organization_id,
            billingStatus: row.billing_status,
          }
        : null,
  };
}

export async function touchApiKey(pool: Queryable, apiKeyId: string): Promise<void> {
  await pool.query('UPDATE api_keys SET last_used_at = now() WHERE api_key_id = $1', [apiKeyId]);
}

/** The cap on monthly active players of an organization's Live environments (null: none). */
export async function liveMonthlyPlayersCap(
  db: Pool | PoolClient,
  organizationId: string,
): Promise<number | null> {
  const { rows } = await db.query<{ live_mau_cap: number | null }>(
    'SELECT live_mau_cap FROM organizations WHERE organization_id = $1',
    [organizationId],
  );
  return rows[0]?.live_mau_cap ?? null;
}

/** The environment with its organization, as the internal headers carry it. */
export async function findEnvironmentContext(
  db: Pool | PoolClient,
  environmentId: string,
): Promise<EnvironmentContext | undefined> {
  const { rows } = await db.query<{ organization_id: string; kind: EnvironmentKind }>(
    `SELECT p.organization_id, e.kind FROM environments e JOIN projects p USING (project_id)
     WHERE e.environment_id = $1`,
    [environmentId],
  );
  const row = rows[0];
  return row ? { organizationId: row.organization_id, environmentId, environmentKind: row.kind } : undefined;
}

/** The organization without its projects, its row locked until the caller's transaction ends. */
export async function lockOrganization(
  client: PoolClient,
  organizationId: string,
): Promise<Organization | undefined> {
  const { rows } = await client.query<OrganizationRow>(
    'SELECT * FROM organizations WHERE organization_id = $1 FOR UPDATE',
    [organizationId],
  );
  return rows[0] && toOrganization(rows[0]);
}

/** The key with its row locked until the caller's transaction ends, and its organization. */
export async function lockApiKey(
  client: PoolClient,
  apiKeyId: string,
): Promise<{ apiKey: ApiKey; organizationId: string } | undefined> {
  const { rows } = await client.query<ApiKeyRow & { organization_id: string }>(
    `SELECT ${API_KEY_COLUMNS}, p.organization_id
       FROM api_keys k JOIN environments e USING (environment_id) JOIN projects p USING (project_id)
      WHERE k.api_key_id = $1 FOR UPDATE OF k`,
    [apiKeyId],
  );
  return rows[0] && { apiKey: toApiKey(rows[0]), organizationId: rows[0].organization_id };
}

/** What an admin route names: the resource whose organization decides who may call it. */
export type OrganizationScope =
  | { organizationId: string }
  | { projectId: string }
  | { environmentId: string }
  | { apiKeyId: string }
  | { webhookId: string };

/** The organization a resource belongs to; undefined when the resource does not exist. */
export async function organizationOf(pool: Queryable, scope: OrganizationScope): Promise<string | undefined> {
  const [sql, id] =
    'organizationId' in scope
      ? ['SELECT organization_id FROM organizations WHERE organization_id = $1', scope.organizationId]
      : 'projectId' in scope
        ? ['SELECT organization_id FROM projects WHERE project_id = $1', scope.projectId]
        : 'environmentId' in scope
          ? [
              `SELECT p.organization_id FROM environments e JOIN projects p USING (project_id)
                WHERE e.environment_id = $1`,
              scope.environmentId,
            ]
          : 'apiKeyId' in scope
            ? [
                `SELECT p.organization_id FROM api_keys k JOIN environments e USING (environment_id)
                   JOIN projects p USING (project_id) WHERE k.api_key_id = $1`,
                scope.apiKeyId,
              ]
            : [
                `SELECT p.organization_id FROM webhook_endpoints w JOIN environments e USING (environment_id)
                   JOIN projects p USING (project_id) WHERE w.webhook_id = $1`,
                scope.webhookId,
              ];
  const { rows } = await pool.query<{ organization_id: string }>(sql, [id]);
  return rows[0]?.organization_id;
}

/** Counts one more changing apply of the environment's definition; answers the version it makes. */
export async function nextDefinitionVersion(client: PoolClient, environmentId: string): Promise<number> {
  const { rows } = await client.query<{ definition_version: string }>(
    `UPDATE environments SET definition_version = definition_version + 1
     WHERE environment_id = $1 RETURNING definition_version`,
    [environmentId],
  );
  if (!rows[0]) throw new Error('the environment of an apply disappeared before the apply was recorded');
  return Number(rows[0].definition_version);
}
