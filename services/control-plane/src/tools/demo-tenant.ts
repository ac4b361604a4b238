import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AdminClient } from '@engage/cli';
import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import { parse as parseYaml } from 'yaml';

/**
 * The demo environment: the complete example file of the docs (one of everything: events, a
 * mission with a points reward, a collection, a streak, a plain and a league board, a shop item).
 */
export const DEMO_ENVIRONMENT_FILE = fileURLToPath(
  new URL('../../../../docs/examples/environment.yaml', import.meta.url),
);

export async function readDemoEnvironment(): Promise<EnvironmentFileInput> {
  return parseYaml(await readFile(DEMO_ENVIRONMENT_FILE, 'utf8')) as EnvironmentFileInput;
}

export interface DemoTenant {
  /** The demo organization's first Owner, who signs in to the console. */
  ownerEmail: string;
  organizationId: string;
  projectId: string;
  sandboxEnvironmentId: string;
  liveEnvironmentId: string;
  sandboxKey: string;
  liveKey: string;
}

const DEMO_ORGANIZATION = 'Demo';
export const DEMO_OWNER_EMAIL = 'owner@demo.local';

/**
 * Creates (or reuses, when an organization named "Demo" exists) a demo organization with billing
 * active and a project, applies the demo environment file to both environments and creates a fresh
 * Sandbox and Live key (keys are shown once, so a reused tenant still gets new ones). Given the
 * tenant an earlier start provisioned, it only applies the file again (nothing changes when it did
 * not change) and keeps that tenant's keys.
 */
export async function provisionDemo(
  admin: AdminClient,
  ownerPassword: string,
  known?: DemoTenant,
): Promise<DemoTenant> {
  const definition = await readDemoEnvironment();
  if (known) {
    for (const environmentId of [known.sandboxEnvironmentId, known.liveEnvironmentId]) {
      await admin.applyDefinition(environmentId, definition);
    }
    return known;
  }
  const [existing] = await admin.listOrganizations({ name: DEMO_ORGANIZATION });
  const organization =
    existing ?? (await admin.createOrganization({ name: DEMO_ORGANIZATION, billingStatus: 'active' }));
  if (organization.billingStatus !== 'active') {
    await admin.updateOrganization(organization.organizationId, { billingStatus: 'active' });
  }
  const operators = await admin.listOperators(organization.organizationId);
  if (!operators.some((o) => o.email === DEMO_OWNER_EMAIL)) {
    // Operators join by invitation: the demo owner accepts its own with the password.
    const { token } = await admin.inviteOperator(organization.organizationId, {
      email: DEMO_OWNER_EMAIL,
      role: 'owner',
    });
    await admin.acceptInvitation({ token, password: ownerPassword, displayName: 'Demo owner' });
  }
  const detail = await admin.getOrganization(organization.organizationId);
  const project =
    detail.projects.find((p) => p.name === 'Demo game') ??
    (await admin.createProject(organization.organizationId, { name: 'Demo game' }));
  for (const environment of [project.sandbox, project.live]) {
    await admin.applyDefinition(environment.environmentId, definition);
  }
  const [sandboxKey, liveKey] = await Promise.all([
    admin.createApiKey(project.sandbox.environmentId, { name: 'demo' }),
    admin.createApiKey(project.live.environmentId, { name: 'demo' }),
  ]);
  return {
    ownerEmail: DEMO_OWNER_EMAIL,
    organizationId: organization.organizationId,
    projectId: project.projectId,
    sandboxEnvironmentId: project.sandbox.environmentId,
    liveEnvironmentId: project.live.environmentId,
    sandboxKey: sandboxKey.apiKey,
    liveKey: liveKey.apiKey,
  };
}
