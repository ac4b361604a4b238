import { startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import { buildConsole, consoleBuildIsStale } from '../../scripts/build.ts';

/** The whole stack as processes, the control plane serving the console built from the sources here. */
export async function startConsoleStack(options: Parameters<typeof startStack>[0] = {}): Promise<TestStack> {
  if (consoleBuildIsStale()) buildConsole();
  return startStack(options);
}

/**
 * Adds an operator with a password to the organization, as its owner and the operator would: an
 * invitation (here sent with the admin token) accepted with its token.
 */
export async function addOperator(
  controlPlaneUrl: string,
  organizationId: string,
  operator: { email: string; password: string; role: string; displayName: string },
): Promise<void> {
  const invited = await fetch(`${controlPlaneUrl}/admin/v1/organizations/${organizationId}/invitations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: operator.email, role: operator.role }),
  });
  if (invited.status !== 201)
    throw new Error(`inviting ${operator.email}: ${invited.status} ${await invited.text()}`);
  const { token } = (await invited.json()) as { token: string };
  const accepted = await fetch(`${controlPlaneUrl}/admin/v1/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: operator.password, displayName: operator.displayName }),
  });
  if (accepted.status !== 200)
    throw new Error(`accepting for ${operator.email}: ${accepted.status} ${await accepted.text()}`);
}
