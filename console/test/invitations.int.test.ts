import { createTenant, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot, seriousViolations } from './support/browser.ts';
import { addOperator, startConsoleStack } from './support/stack.ts';

/**
 * Invitations in a real Chromium against the whole stack: an operator of one organization, invited
 * to two more, joins one by accepting its invitation and declines the other.
 */

const PASSWORD = 'correct horse battery staple';
const operator = {
  email: `invitee-${crypto.randomUUID()}@example.test`,
  displayName: 'Ivy Invitee',
  role: 'viewer',
  password: PASSWORD,
};

let stack: TestStack;
let browser: Browser;
let page: Page;
let home: Tenant;
let joining: Tenant;
let declined: Tenant;
const names = {
  joining: `Joining ${crypto.randomUUID().slice(0, 8)}`,
  declined: `Declined ${crypto.randomUUID().slice(0, 8)}`,
};

/** Invites the operator's email to the organization, as its owner would (here: the admin token). */
async function invite(organizationId: string, role: string): Promise<void> {
  const invited = await fetch(
    `${stack.controlPlaneUrl}/admin/v1/organizations/${organizationId}/invitations`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: operator.email, role }),
    },
  );
  expect(invited.status).toBe(201);
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startConsoleStack(), launchBrowser()]);
  home = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
  joining = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { name: names.joining });
  declined = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { name: names.declined });
  await addOperator(stack.controlPlaneUrl, home.organizationId, operator);
  await invite(joining.organizationId, 'designer');
  await invite(declined.organizationId, 'support');
  page = await openPage(browser);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const memberships = async () => {
  const answer = await page.request.get(`${stack.controlPlaneUrl}/admin/v1/session`);
  return ((await answer.json()) as { memberships: { organizationId: string; role: string }[] }).memberships;
};

describe('invitations in the console', () => {
  it('lists the invitations waiting for the signed-in operator', async () => {
    await page.goto(`${stack.controlPlaneUrl}/console/`);
    await page.getByLabel('Email').fill(operator.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Invitations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invitations' }).waitFor();
    const table = page.getByRole('table', { name: 'Invitations waiting for you' });
    await expect
      .poll(() => table.getByRole('row', { name: new RegExp(names.joining) }).textContent())
      .toContain('designer');
    expect(await table.getByRole('row', { name: new RegExp(names.declined) }).textContent()).toContain(
      'support',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'invitations');
  });

  it('declines one: it leaves the list, and nothing is joined', async () => {
    await page.getByRole('button', { name: `Decline the invitation to ${names.declined}` }).click();
    const table = page.getByRole('table', { name: 'Invitations waiting for you' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect((await memberships()).map((m) => m.organizationId)).not.toContain(declined.organizationId);
  });

  it('accepts the other: joins with its role and opens the organization', async () => {
    await page.getByRole('button', { name: `Accept the invitation to ${names.joining}` }).click();
    await page.getByRole('heading', { level: 1, name: names.joining }).waitFor();
    expect(page.url()).toBe(`${stack.controlPlaneUrl}/console/organizations/${joining.organizationId}`);
    expect(await page.locator('.operator .role').textContent()).toContain('designer');
    expect(await memberships()).toContainEqual(
      expect.objectContaining({ organizationId: joining.organizationId, role: 'designer' }),
    );
    await page.getByRole('link', { name: 'Invitations' }).click();
    await page.getByText('No invitations are waiting for you.').waitFor();
  });
});
