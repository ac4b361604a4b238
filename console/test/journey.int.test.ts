import { createTenant, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerConfirmation,
  launchBrowser,
  openPage,
  screenshot,
  seriousViolations,
} from './support/browser.ts';
import { addOperator, startConsoleStack } from './support/stack.ts';

/**
 * An operator's journey through the console in a real Chromium against the whole stack: sign in,
 * create a key, use it on /v1, revoke it, switch discovery; and a viewer who may only look.
 */

const PASSWORD = 'correct horse battery staple';
const owner = {
  email: `owner-${crypto.randomUUID()}@example.test`,
  displayName: 'Olive Owner',
  role: 'owner',
};
const viewer = {
  email: `viewer-${crypto.randomUUID()}@example.test`,
  displayName: 'Vic Viewer',
  role: 'viewer',
};

let stack: TestStack;
let browser: Browser;
let tenant: Tenant;
let page: Page;
let orgName: string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startConsoleStack(), launchBrowser()]);
  orgName = `Studio ${crypto.randomUUID().slice(0, 8)}`;
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    name: orgName,
    definition: {
      discovery: false,
      events: [
        { key: 'level_completed', active: true, properties: { level: { type: 'number', required: true } } },
      ],
      missions: [
        {
          key: 'first-level',
          name: 'First level',
          objectives: [{ key: 'one', event: 'level_completed' }],
          rewards: [{ points: 5 }],
        },
      ],
    },
  });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...owner, password: PASSWORD });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...viewer, password: PASSWORD });
  page = await openPage(browser);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function expectAccessible(name: string) {
  expect(await seriousViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

async function signIn(target: Page, email: string, password: string) {
  await target.goto(`${stack.controlPlaneUrl}/console/`);
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password').fill(password);
  await target.getByRole('button', { name: 'Sign in' }).click();
}

const v1 = (apiKey: string, method: string, path: string, body?: unknown) =>
  fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('the console in a browser', () => {
  it('refuses a wrong password with the problem detail and code, and signs in with the right one', async () => {
    await signIn(page, owner.email, 'not the password at all');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('admin.sign_in_failed');
    await expectAccessible('sign-in');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: orgName }).waitFor();
    expect(page.url()).toBe(`${stack.controlPlaneUrl}/console/organizations/${tenant.organizationId}`);
  });

  it('shows the organization: billing, usage against limits, both environments of each project', async () => {
    await expect.poll(() => page.locator('.facts').textContent()).toContain('Active');
    const usage = page.getByRole('region', { name: 'Usage' });
    const row = (name: RegExp) => usage.getByRole('row', { name });
    await expect.poll(() => row(/^Live monthly active players/).textContent()).toContain('No cap');
    expect(await row(/Sandbox players/).textContent()).toMatch(/0100$/);
    expect(await row(/Sandbox events today/).textContent()).toMatch(/010,000$/);
    expect(await row(/Requests refused today/).textContent()).toMatch(/more than 16 in flight0$/);
    expect(await page.getByRole('region', { name: `${orgName} Sandbox` }).textContent()).toContain(
      'Discovery off',
    );
    await page.getByRole('region', { name: `${orgName} Live` }).waitFor();
    await expectAccessible('overview');
  });

  let apiKey = '';
  it('creates a key shown once, which then works on /v1 and completes a mission', async () => {
    await page.getByRole('link', { name: `API keys of ${orgName} Sandbox` }).click();
    await page.getByRole('heading', { level: 1, name: `API keys · ${orgName} Sandbox` }).waitFor();
    await page.getByLabel('Name (optional)').fill('journey');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = page.getByRole('status', { name: 'New API key' }).or(page.getByTestId('new-api-key'));
    apiKey = (await secret.textContent()) ?? '';
    expect(apiKey).toMatch(/^eng_sandbox_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    await expectAccessible('api-keys-created');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'journey', exact: true }).waitFor();

    const playerId = `journey-${crypto.randomUUID()}`;
    expect((await v1(apiKey, 'POST', '/v1/missions', { playerId })).status).toBe(200);
    const sent = await v1(apiKey, 'POST', '/v1/events', {
      events: [{ eventKey: 'level_completed', playerId, properties: { level: 1 } }],
    });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ accepted: 1, rejected: 0 });
    await expect
      .poll(
        async () => {
          const missions = (await (await v1(apiKey, 'POST', '/v1/missions', { playerId })).json()) as {
            missionKey: string;
            status: string;
          }[];
          return missions.find((m) => m.missionKey === 'first-level')?.status;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe('Completed');
    await expect
      .poll(
        async () =>
          ((await (await v1(apiKey, 'GET', `/v1/points?PlayerId=${playerId}`)).json()) as { balance: number })
            .balance,
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toBe(5);
  });

  it('revokes the key, after which /v1 refuses it', async () => {
    await page.reload();
    await page.getByRole('cell', { name: 'journey', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Revoke journey' }).click();
    await answerConfirmation(page, 'Revoke');
    await page.getByRole('cell', { name: /^Revoked / }).waitFor();
    await expectAccessible('api-keys');
    // The gateway refuses the key once the revocation's record reaches it.
    await expect
      .poll(async () => (await v1(apiKey, 'GET', '/v1/points?PlayerId=anyone')).status, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(401);
  });

  it('switches discovery on after showing the dry-run difference', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('link', { name: `Discovery of ${orgName} Sandbox` }).click();
    await page.getByRole('button', { name: 'Switch discovery on…' }).click();
    const preview = page.getByRole('region', { name: 'Changes to apply' });
    expect(await preview.textContent()).toContain('discovery');
    await expectAccessible('discovery');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('region', { name: 'Changes applied' }).waitFor();
    await expect.poll(() => page.locator('main .card strong').first().textContent()).toBe('on');
    const definition = await fetch(
      `${stack.controlPlaneUrl}/admin/v1/environments/${tenant.sandbox.environmentId}/definition`,
      {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      },
    );
    expect(((await definition.json()) as { discovery: boolean }).discovery).toBe(true);
  });

  it('signs out to the sign-in page, and the session is gone', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to engage' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/admin/v1/session')).status);
    expect(status).toBe(401);
  });

  it('shows a viewer no way to create or revoke keys, and the server refuses the viewer', async () => {
    const viewerPage = await openPage(browser);
    try {
      await signIn(viewerPage, viewer.email, PASSWORD);
      await viewerPage.getByRole('heading', { level: 1, name: orgName }).waitFor();
      await viewerPage.goto(
        `${stack.controlPlaneUrl}/console/organizations/${tenant.organizationId}/environments/${tenant.sandbox.environmentId}/api-keys`,
      );
      await viewerPage.getByRole('heading', { level: 1, name: `API keys · ${orgName} Sandbox` }).waitFor();
      await viewerPage
        .getByRole('cell', { name: /^Active$/ })
        .first()
        .waitFor();
      expect(await viewerPage.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
      expect(await viewerPage.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
      const refused = await viewerPage.evaluate(async (environmentId) => {
        const session = (await (await fetch('/admin/v1/session')).json()) as { csrfToken: string };
        const res = await fetch(`/admin/v1/environments/${environmentId}/api-keys`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          body: '{}',
        });
        return { status: res.status, body: await res.json() };
      }, tenant.sandbox.environmentId);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'admin.forbidden' });
    } finally {
      await viewerPage.context().close();
    }
  });
});
