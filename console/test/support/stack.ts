import { startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import { buildConsole, consoleBuildIsStale } from '../../scripts/build.ts';

/** The whole stack as processes, the gateway serving the console built from the sources here. */
export async function startConsoleStack(options: Parameters<typeof startStack>[0] = {}): Promise<TestStack> {
  if (consoleBuildIsStale()) buildConsole();
  return startStack(options);
}

/** Adds an operator with a password to the organization, as its owner would (here: the admin token). */
export async function addOperator(
  gatewayUrl: string,
  organizationId: string,
  operator: { email: string; password: string; role: string; displayName: string },
): Promise<void> {
  const res = await fetch(`${gatewayUrl}/admin/v1/organizations/${organizationId}/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(operator),
  });
  if (res.status !== 201) throw new Error(`adding ${operator.email}: ${res.status} ${await res.text()}`);
}
