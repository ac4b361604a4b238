import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
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
 * The content pages in a real Chromium against the whole stack: a designer edits the environment
 * file in the schema-aware editor, previews the difference, applies it and finds it in the
 * history; an owner reads it in the audit log; an invalid file shows the server's refusal with its
 * path; a viewer may only read; the Sandbox is promoted to Live after its difference is shown.
 */

const PASSWORD = 'correct horse battery staple';
const operator = (role: string, displayName: string) => ({
  email: `${role}-${crypto.randomUUID()}@example.test`,
  displayName,
  role,
  password: PASSWORD,
});
const designer = operator('designer', 'Dana Designer');
const viewer = operator('viewer', 'Vic Viewer');
const owner = operator('owner', 'Olive Owner');

const definition = {
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
} satisfies EnvironmentFileInput;

let stack: TestStack;
let browser: Browser;
let tenant: Tenant;
let orgName: string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startConsoleStack(), launchBrowser()]);
  orgName = `Studio ${crypto.randomUUID().slice(0, 8)}`;
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { name: orgName, definition });
  for (const who of [designer, viewer, owner])
    await addOperator(stack.controlPlaneUrl, tenant.organizationId, who);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A write made with the viewer's session (cookie and CSRF token), as its browser would: the status. */
async function viewerWrite(path: string): Promise<number> {
  const signIn = await fetch(`${stack.controlPlaneUrl}/admin/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: viewer.email, password: viewer.password }),
  });
  const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const { csrfToken } = (await signIn.json()) as { csrfToken: string };
  const write = await fetch(`${stack.controlPlaneUrl}${path}`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: '{}',
  });
  return write.status;
}

/** Script errors and console errors (a refused style or script under the CSP among them), per page. */
const pageErrors = new Map<Page, string[]>();

async function signedIn(who: { email: string }): Promise<Page> {
  const page = await openPage(browser);
  const errors: string[] = [];
  pageErrors.set(page, errors);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A failed response is reported here too: those are recorded with their path below.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      errors.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    }
  });
  await page.goto(`${stack.controlPlaneUrl}/console/`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: orgName }).waitFor();
  return page;
}

async function expectAccessible(page: Page, name: string) {
  expect(await seriousViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

/**
 * The editor as its own styles lay it out (they are injected, and the page's policy admits them
 * only with its nonce): the line-number gutter at the left of the text, side by side, and the
 * lines indented as the file is.
 */
async function expectEditorLaidOut(page: Page) {
  const gutter = (await page.locator('.cm-gutters').boundingBox())!;
  const content = (await page.locator('.cm-content').boundingBox())!;
  expect(gutter.x + gutter.width).toBeLessThanOrEqual(content.x + 1);
  expect(gutter.y).toBeLessThan(content.y + content.height);
  expect(content.y).toBeLessThan(gutter.y + gutter.height);
  expect(gutter.width).toBeLessThan(content.width);
  // Without its styles the text's white space collapses: the file's indentation is gone.
  const whiteSpace = await page.locator('.cm-content').evaluate((el) => getComputedStyle(el).whiteSpace);
  expect(whiteSpace).toMatch(/^(pre|break-spaces)/);
}

const editorOf = (page: Page) => page.getByRole('textbox', { name: /^Environment file of / });

/** Replaces the editor's text as an operator pasting a file would. */
async function pasteFile(page: Page, file: unknown) {
  const text = JSON.stringify(file, null, 2);
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await editorOf(page).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('ControlOrMeta+v');
  await expect
    .poll(async () => (await editorOf(page).textContent())?.replaceAll(/\s/g, ''))
    .toContain(text.replaceAll(/\s/g, '').slice(0, 40));
}

async function fileOf(environmentId: string) {
  const res = await fetch(`${stack.controlPlaneUrl}/admin/v1/environments/${environmentId}/definition`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  return (await res.json()) as { missions: { key: string; name: string }[] };
}

const renamed = {
  ...definition,
  missions: [{ ...definition.missions[0]!, name: 'First level, renamed' }],
};

describe('content in the console', () => {
  let page: Page;

  it('lets a designer preview a mission change, then apply exactly what was previewed', async () => {
    page = await signedIn(designer);
    await page.getByRole('link', { name: `Content of ${orgName} Sandbox` }).click();
    await page.getByRole('heading', { level: 1, name: `Content · ${orgName} Sandbox` }).waitFor();
    await expect.poll(() => editorOf(page).textContent()).toContain('first-level');
    await expectEditorLaidOut(page);
    const apply = page.getByRole('button', { name: 'Apply', exact: true });
    expect(await apply.isDisabled()).toBe(true);

    await pasteFile(page, renamed);
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Changes to apply' });
    await preview.waitFor();
    const row = preview.getByRole('row', { name: /first-level/ });
    expect(await row.textContent()).toMatch(/missions.*first-level.*Updated.*name/);
    expect((await fileOf(tenant.sandbox.environmentId)).missions[0]!.name).toBe('First level');
    await expectAccessible(page, 'content-preview');

    // A change after the preview needs a preview of its own before it can be applied.
    await editorOf(page).press('End');
    await page.keyboard.type(' ');
    await expect.poll(() => apply.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => apply.isDisabled()).toBe(false);
    await apply.click();
    const applied = page.getByRole('region', { name: 'Changes applied' });
    await applied.waitFor();
    expect(await applied.textContent()).toContain('first-level');
    expect((await fileOf(tenant.sandbox.environmentId)).missions[0]!.name).toBe('First level, renamed');
  });

  it('shows the apply in the history of applied versions, with who and the difference', async () => {
    const history = page.getByRole('table', { name: 'Applied versions, newest first' });
    const entry = history.getByRole('row').nth(1);
    await expect.poll(() => entry.textContent()).toContain(designer.email);
    await entry.getByText('Show difference').click();
    expect(await entry.getByRole('region', { name: 'Changes applied' }).textContent()).toContain(
      'first-level',
    );
    await expectAccessible(page, 'content-history');
    // The designer's role does not read the organization's audit log: no link to it.
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
  });

  it('edits a mission and a shop item in the forms, which rewrite the text to preview', async () => {
    await page.getByText('Content as forms').click();
    const name = page.getByRole('textbox', { name: 'Name of first-level' });
    expect(await name.inputValue()).toBe('First level, renamed');
    await name.fill('First level, from the form');
    await page.getByRole('combobox', { name: 'Repeat of first-level' }).selectOption('daily');
    await expect.poll(() => editorOf(page).textContent()).toContain('First level, from the form');
    await page.getByRole('button', { name: 'Preview' }).click();
    const changes = page.getByRole('region', { name: 'Changes to apply' });
    const row = changes.getByRole('row', { name: /first-level/ });
    await expect.poll(() => row.textContent()).toMatch(/Updated.*name.*repeat|Updated.*repeat.*name/);

    // A nested section (marketplace.items) is rewritten in place, beside the rest of the text.
    await pasteFile(page, {
      ...definition,
      marketplace: { items: [{ key: 'gem-pack', name: 'Gem pack', priceInPoints: 50 }] },
    });
    await page.getByRole('spinbutton', { name: 'Price in points of gem-pack' }).fill('75');
    await page.getByRole('spinbutton', { name: 'Stock of gem-pack' }).fill('10');
    await page.getByRole('checkbox', { name: 'gem-pack active' }).uncheck();
    await expect
      .poll(async () => (await editorOf(page).textContent())?.replaceAll(/\s/g, ''))
      .toContain('"priceInPoints":75,"stock":10,"active":false');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() => changes.getByRole('row', { name: /gem-pack/ }).textContent())
      .toContain('Created');
    await expectAccessible(page, 'content-forms');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await name.inputValue()).toBe('First level, renamed');
  });

  it('shows a file the server refuses with the path of each refused place', async () => {
    await pasteFile(page, {
      ...definition,
      missions: [{ ...definition.missions[0]!, rewards: [{ points: -5 }] }],
    });
    await page.getByRole('button', { name: 'Preview' }).click();
    const refused = page.getByRole('region', { name: 'What the server refused' });
    await refused.waitFor();
    expect(await refused.textContent()).toContain('missions.0.rewards.0.points');
    expect(await page.getByRole('alert').first().textContent()).toContain('validation.missions');
    expect(await page.getByRole('button', { name: 'Apply', exact: true }).isDisabled()).toBe(true);
    await refused.getByRole('button', { name: 'missions.0.rewards.0.points' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.className ?? ''))
      .toContain('cm-content');
    await expectAccessible(page, 'content-refused');
    expect((await fileOf(tenant.sandbox.environmentId)).missions[0]!.name).toBe('First level, renamed');
  });

  it('lets an owner read the apply in the audit log, newest first, with its difference, and a denied write', async () => {
    // The viewer tries a write its role does not allow: refused, and recorded as denied.
    const refused = await viewerWrite(`/admin/v1/environments/${tenant.live.environmentId}/api-keys`);
    expect(refused).toBe(403);
    const ownerPage = await signedIn(owner);
    try {
      await ownerPage.getByRole('link', { name: 'Audit log' }).click();
      await ownerPage.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      const log = ownerPage.getByRole('table', { name: 'Audit log, newest first' });
      const denied = log.getByRole('row').nth(1);
      await expect.poll(() => denied.textContent()).toContain(viewer.email);
      expect(await denied.textContent()).toMatch(
        /POST \/environments\/:environmentId\/api-keys denied \(admin\.forbidden\)Nothing changed/,
      );
      const applied = log.getByRole('row').nth(2);
      expect(await applied.textContent()).toContain(designer.email);
      expect(await applied.textContent()).toContain('PUT /environments/:environmentId/definition');
      await applied.getByText('Show difference').click();
      expect(await applied.getByRole('region', { name: 'Changes applied' }).textContent()).toContain(
        'first-level',
      );
      await expectAccessible(ownerPage, 'audit-log');
    } finally {
      await ownerPage.context().close();
    }
  });

  it('shows a viewer the file read-only, with no way to preview or apply', async () => {
    const viewerPage = await signedIn(viewer);
    try {
      await viewerPage.getByRole('link', { name: `Content of ${orgName} Live` }).click();
      await expect.poll(() => editorOf(viewerPage).textContent()).toContain('first-level');
      expect(await editorOf(viewerPage).getAttribute('contenteditable')).toBe('false');
      expect(await viewerPage.getByRole('button', { name: 'Apply', exact: true }).count()).toBe(0);
      expect(await viewerPage.getByRole('button', { name: 'Preview' }).count()).toBe(0);
      await viewerPage.getByRole('note').filter({ hasText: 'may read this file, not change it' }).waitFor();
      await expectAccessible(viewerPage, 'content-viewer');
    } finally {
      await viewerPage.context().close();
    }
  });

  it('promotes the Sandbox to Live after showing the difference it makes to Live', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: orgName }).waitFor();
    expect(await seriousViolations(page), 'overview').toEqual([]);
    await page.getByRole('link', { name: `Promote Sandbox to Live of ${orgName}` }).click();
    await page.getByRole('heading', { level: 1, name: `Promote Sandbox to Live · ${orgName}` }).waitFor();
    await page.getByRole('button', { name: 'Show the difference' }).click();
    const preview = page.getByRole('region', { name: 'Changes to apply' });
    await preview.waitFor();
    expect(await preview.getByRole('row', { name: /first-level/ }).textContent()).toMatch(/Updated.*name/);
    expect((await fileOf(tenant.live.environmentId)).missions[0]!.name).toBe('First level');
    await expectAccessible(page, 'promotion');
    await page.getByRole('button', { name: 'Apply to Live' }).click();
    await answerConfirmation(page, 'Apply to Live');
    await page.getByRole('region', { name: 'Changes applied' }).waitFor();
    expect((await fileOf(tenant.live.environmentId)).missions[0]!.name).toBe('First level, renamed');
  });

  it('ran the editor without a script error, a refused resource or a style the policy refused', () => {
    expect(policyViolations(page)).toEqual([]);
    // Before signing in the session check answers 401; the refused file's preview answered 400.
    expect(pageErrors.get(page)).toEqual([
      '401 GET /admin/v1/session',
      `400 PUT /admin/v1/environments/${tenant.sandbox.environmentId}/definition`,
    ]);
  });
});
