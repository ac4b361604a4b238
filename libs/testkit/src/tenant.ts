import { AdminClient } from '@engage/cli';
import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import type { BillingStatus } from '@engage/contracts/http/admin.ts';
import { TEST_ADMIN_TOKEN } from './constants.ts';

export interface Tenant {
  organizationId: string;
  projectId: string;
  sandbox: { environmentId: string; apiKey: string };
  live: { environmentId: string; apiKey: string };
}

export interface TenantOptions {
  /** Billing of the organization; `active` by default so Live keys work. */
  billingStatus?: BillingStatus;
  liveMonthlyActivePlayersCap?: number | null;
  /** An environment file applied to both environments (e.g. event definitions, discovery). */
  definition?: EnvironmentFileInput;
  name?: string;
}

/** A fresh organization and project with a key for each environment, through the control plane's admin API. */
export async function createTenant(
  controlPlaneUrl: string,
  adminToken: string = TEST_ADMIN_TOKEN,
  options: TenantOptions = {},
): Promise<Tenant> {
  const admin = new AdminClient({ url: controlPlaneUrl, token: adminToken });
  const name = options.name ?? `test-${crypto.randomUUID()}`;
  const organization = await admin.createOrganization({
    name,
    billingStatus: options.billingStatus ?? 'active',
    liveMonthlyActivePlayersCap: options.liveMonthlyActivePlayersCap ?? null,
  });
  const project = await admin.createProject(organization.organizationId, { name });
  if (options.definition) {
    for (const env of [project.sandbox, project.live])
      await admin.applyDefinition(env.environmentId, options.definition);
  }
  const [sandboxKey, liveKey] = await Promise.all([
    admin.createApiKey(project.sandbox.environmentId),
    admin.createApiKey(project.live.environmentId),
  ]);
  return {
    organizationId: organization.organizationId,
    projectId: project.projectId,
    sandbox: { environmentId: project.sandbox.environmentId, apiKey: sandboxKey.apiKey },
    live: { environmentId: project.live.environmentId, apiKey: liveKey.apiKey },
  };
}
