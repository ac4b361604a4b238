import type { AdminClient } from '@engage/cli';
import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';

/** The demo environment: a few events a game sends, enough to try missions, streaks and boards. */
export const DEMO_ENVIRONMENT: EnvironmentFileInput = {
  discovery: false,
  events: [
    {
      key: 'level_completed',
      description: 'A level was finished.',
      properties: { level: { type: 'number', required: true }, score: { type: 'number', required: false } },
    },
    {
      key: 'purchase_made',
      description: 'A real-money or soft-currency purchase.',
      properties: { sku: { type: 'string', required: true }, amount: { type: 'number', required: false } },
    },
    { key: 'session_started', description: 'The player opened the game.', properties: {} },
  ],
};

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
 * Sandbox and Live key (keys are shown once, so a reused tenant still gets new ones).
 */
export async function provisionDemo(admin: AdminClient, ownerPassword: string): Promise<DemoTenant> {
  const [existing] = await admin.listOrganizations({ name: DEMO_ORGANIZATION });
  const organization =
    existing ?? (await admin.createOrganization({ name: DEMO_ORGANIZATION, billingStatus: 'active' }));
  if (organization.billingStatus !== 'active') {
    await admin.updateOrganization(organization.organizationId, { billingStatus: 'active' });
  }
  const operators = await admin.listOperators(organization.organizationId);
  if (!operators.some((o) => o.email === DEMO_OWNER_EMAIL)) {
    await admin.createOperator(organization.organizationId, {
      email: DEMO_OWNER_EMAIL,
      role: 'owner',
      displayName: 'Demo owner',
      password: ownerPassword,
    });
  }
  const detail = await admin.getOrganization(organization.organizationId);
  const project =
    detail.projects.find((p) => p.name === 'Demo game') ??
    (await admin.createProject(organization.organizationId, { name: 'Demo game' }));
  for (const environment of [project.sandbox, project.live]) {
    await admin.applyDefinition(environment.environmentId, DEMO_ENVIRONMENT);
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
