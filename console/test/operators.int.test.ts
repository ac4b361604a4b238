import { createTenant, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerConfirmation,
  launchBrowser,
  openPage,
  policyViolations,
  screenshot,
  seriousViolations,
} from './support/browser.ts';
import { addOperator, startConsoleStack } from './support/stack.ts';

/**
 * The owner's Operators page and the audit log's filters in a real Chromium, the console loaded as
 * the gateway serves it (its Content-Security-Policy enforced): an owner invites an email, the
 * invitee accepts the link in a browser of its own, the owner changes the newcomer's role and
 * removes them after confirming in the page; the audit log is then filtered by operator, route and
 * time.
 */

const PASSWORD = 'correct horse battery staple';
const owner = {
  email: `owner-${crypto.randomUUID()}@example.test`,
  displayName: 'Olive Owner',
  role: 'owner',
  password: PASSWORD,
};
const newcomer = { email: `newcomer-${crypto.randomUUID()}@example.test`, displayName: 'Nico Newcomer' };

let stack: TestStack;
let browser: Browser;
let tenant: Tenant;
let page: Page;
let orgName: string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startConsoleStack(), launchBrowser()]);
  orgName = `Studio ${crypto.randomUUID().slice(0, 8)}`;
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { name: orgName });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, owner);
  page = await openPage(browser);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The organization's operators as the admin API lists them. */
async function operators(): Promise<{ operatorId: string; email: string; role: string }[]> {
  const answer = await fetch(
    `${stack.controlPlaneUrl}/admin/v1/organizations/${tenant.organizationId}/operators`,
    {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    },
  );
  return ((await answer.json()) as { operators: { operatorId: string; email: string; role: string }[] })
    .operators;
}

const roleOf = async (email: string) => (await operators()).find((o) => o.email === email)?.role;

async function signIn(on: Page, email: string) {
  await on.goto(`${stack.controlPlaneUrl}/console/sign-in`);
  await on.getByLabel('Email').fill(email);
  await on.getByLabel('Password').fill(PASSWORD);
  await on.getByRole('button', { name: 'Sign in' }).click();
}

describe('the console as served', () => {
  it('answers each page with a nonce of its own in its policy, and a favicon the page links', async () => {
    const first = (await page.goto(`${stack.controlPlaneUrl}/console/`))!;
    const policy = first.headers()['content-security-policy']!;
    expect(policy).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(policy).not.toContain('unsafe-inline');
    const again = await fetch(`${stack.controlPlaneUrl}/console/organizations/anything`);
    expect(again.headers.get('content-security-policy')).not.toBe(policy);
    // The nonce is the page's, and none of the placeholder the build leaves is sent.
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    expect(
      await page.locator('meta[property="csp-nonce"]').evaluate((m) => (m as HTMLMetaElement).nonce),
    ).toBe(nonce);
    expect(await first.text()).not.toContain('ENGAGE_CSP_NONCE');
    // The page as a file is not served past the nonce.
    const asFile = await fetch(`${stack.controlPlaneUrl}/console/index.html`);
    expect(await asFile.text()).not.toContain('ENGAGE_CSP_NONCE');

    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/console/favicon.svg');
    const favicon = await fetch(`${stack.controlPlaneUrl}${icon}`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toContain('image/svg+xml');
    expect(await favicon.text()).toContain('<svg');
  });
});

describe('the Operators page', () => {
  let link: string;

  it('lets the owner invite an email, showing the invitation link once', async () => {
    await signIn(page, owner.email);
    await page.getByRole('heading', { level: 1, name: orgName }).waitFor();
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { level: 1, name: 'Operators' }).waitFor();
    const table = page.getByRole('table', { name: 'Operators' });
    await expect.poll(() => table.textContent()).toContain(owner.email);

    await page.getByRole('textbox', { name: 'Email' }).fill(newcomer.email);
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('designer');
    await page.getByRole('button', { name: 'Invite' }).click();
    link = (await page.getByTestId('invitation-link').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${stack.controlPlaneUrl}/console/accept-invitation#.+`));
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await expect.poll(() => pending.textContent()).toContain(newcomer.email);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operators');
  });

  it('lets the invitee accept the link in a browser of its own, then sign in', async () => {
    const invitee = await openPage(browser);
    await invitee.goto(link);
    await invitee.getByRole('heading', { level: 1, name: 'Accept an invitation' }).waitFor();
    await invitee.getByLabel('Your name (for a new account)').fill(newcomer.displayName);
    await invitee.getByLabel('Password').fill(PASSWORD);
    expect(await seriousViolations(invitee)).toEqual([]);
    await invitee.getByRole('button', { name: 'Accept and join' }).click();
    await expect
      .poll(() => invitee.getByRole('status').textContent())
      .toContain(`You joined ${orgName} as designer`);
    await invitee.getByRole('link', { name: 'Sign in' }).click();
    await signIn(invitee, newcomer.email);
    await invitee.getByRole('heading', { level: 1, name: orgName }).waitFor();
    expect(await invitee.locator('.operator .role').textContent()).toContain('designer');
    // Only owners manage operators: no link for a designer.
    expect(await invitee.getByRole('link', { name: 'Operators' }).count()).toBe(0);
    expect(policyViolations(invitee)).toEqual([]);
    await invitee.context().close();
  });

  it("changes the newcomer's role", async () => {
    await page.reload();
    const table = page.getByRole('table', { name: 'Operators' });
    await expect.poll(() => table.textContent()).toContain(newcomer.email);
    await page.getByRole('combobox', { name: `Role of ${newcomer.email}` }).selectOption('support');
    await page.getByRole('button', { name: `Change role of ${newcomer.email}` }).click();
    await expect.poll(() => roleOf(newcomer.email)).toBe('support');
    expect(await page.getByRole('table', { name: 'Pending invitations' }).count()).toBe(0);
  });

  it('removes the newcomer only once confirmed in the page: Cancel changes nothing', async () => {
    await page.getByRole('button', { name: `Remove ${newcomer.email}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Remove ${newcomer.email} from the organization?` });
    await dialog.waitFor();
    // The dialog has the focus, on its harmless button.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'confirmation');
    await answerConfirmation(page, 'Cancel');
    expect(await roleOf(newcomer.email)).toBe('support');
    // Escape is a Cancel too.
    await page.getByRole('button', { name: `Remove ${newcomer.email}` }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await roleOf(newcomer.email)).toBe('support');

    await page.getByRole('button', { name: `Remove ${newcomer.email}` }).click();
    await answerConfirmation(page, 'Remove');
    await expect.poll(async () => (await operators()).map((o) => o.email)).toEqual([owner.email]);
    await expect
      .poll(() => page.getByRole('table', { name: 'Operators' }).textContent())
      .not.toContain(newcomer.email);
  });
});

describe('the audit log page', () => {
  it("filters by operator and route: the owner's operator changes only", async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await page.getByLabel("Operator's email").fill(owner.email.toUpperCase());
    await page.getByLabel('Route contains').fill('/operators/');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const log = page.getByRole('table', { name: 'Audit log, newest first' });
    await expect.poll(() => log.locator('tbody tr').count()).toBe(2);
    const whats = await log.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(whats).toEqual([
      'DELETE /organizations/:organizationId/operators/:operatorId',
      'PATCH /organizations/:organizationId/operators/:operatorId',
    ]);
    const whos = await log.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(whos).toEqual([owner.email, owner.email]);
    expect(new URL(page.url()).searchParams.get('route')).toBe('/operators/');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'audit-log-filtered');
  });

  it('filters by time, and shows the problem of a period that ends before it starts', async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('From (UTC)').fill('2000-01-02T00:00');
    await page.getByLabel('Before (UTC)').fill('2000-01-03T00:00');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByText('No change matches these filters.').waitFor();

    await page.getByLabel('From (UTC)').fill('2000-01-03T00:00');
    await page.getByLabel('Before (UTC)').fill('2000-01-02T00:00');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('validation.to');
    expect(await page.getByRole('table', { name: 'Audit log, newest first' }).count()).toBe(0);
  });

  it('ran every page without anything the policy refused', () => {
    expect(policyViolations(page)).toEqual([]);
  });
});
