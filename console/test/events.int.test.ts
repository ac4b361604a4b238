import { createTenant, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openPage,
  policyViolations,
  screenshot,
  seriousViolations,
} from './support/browser.ts';
import { addOperator, startConsoleStack } from './support/stack.ts';

/**
 * The Events page in a real Chromium against the whole stack: a studio's refused event appears in
 * the live debugger with its code and path; a discovered event is declared through a dry run.
 */

const PASSWORD = 'correct horse battery staple';
const designer = {
  email: `designer-${crypto.randomUUID()}@example.test`,
  displayName: 'Dana Designer',
  role: 'designer',
};

let stack: TestStack;
let browser: Browser;
let tenant: Tenant;
let page: Page;
let orgName: string;

const sendEvents = async (events: unknown[]) => {
  const response = await fetch(`${stack.gatewayUrl}/v1/events`, {
    method: 'POST',
    headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  expect(response.status).toBe(200);
  return response.json();
};

beforeAll(async () => {
  [stack, browser] = await Promise.all([startConsoleStack(), launchBrowser()]);
  orgName = `Studio ${crypto.randomUUID().slice(0, 8)}`;
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    name: orgName,
    definition: {
      discovery: true,
      events: [{ key: 'level_completed', properties: { level: { type: 'number', required: true } } }],
    },
  });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...designer, password: PASSWORD });
  page = await openPage(browser);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the Events page', () => {
  it('counts recent refusals on the overview', async () => {
    const sent = await sendEvents([
      { eventKey: 'level_completed', playerId: 'studio-1', properties: { level: 'three' } },
      { eventKey: 'chest_opened', playerId: 'studio-1', properties: { gold: 5 } },
    ]);
    expect(sent).toMatchObject({ accepted: 1, rejected: 1 });
    await page.goto(`${stack.controlPlaneUrl}/console/`);
    await page.getByLabel('Email').fill(designer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const sandbox = page.getByRole('region', { name: `${orgName} Sandbox` });
    await expect
      .poll(() => sandbox.textContent(), { timeout: 15_000 })
      .toContain('1 refused events recently');
  });

  it("shows a refused event's code, path and message in the live debugger", async () => {
    await page.getByRole('link', { name: `Events of ${orgName} Sandbox` }).click();
    await page.getByRole('heading', { level: 1, name: `Events · ${orgName} Sandbox` }).waitFor();
    const debuggerTable = page.getByRole('table', { name: 'Recent events' });
    await expect
      .poll(() => debuggerTable.textContent(), { timeout: 15_000 })
      .toContain('event.property_type_mismatch at properties.level: Property level must be');

    // While the page is open, new items arrive by themselves, accepted ones too.
    await sendEvents([
      { eventKey: 'level_completed', playerId: 'studio-2', properties: { level: 2 } },
      { eventKey: 'level_completed', playerId: 'studio-2' },
    ]);
    await expect
      .poll(() => debuggerTable.textContent(), { timeout: 15_000 })
      .toContain('event.required_property_missing');
    await expect.poll(() => debuggerTable.textContent()).toContain('Accepted');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'events');

    await page.getByLabel('Refused only').check();
    expect(await debuggerTable.textContent()).not.toContain('Accepted');
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Paused');
  });

  it("shows only one player's items, each with its date, when filtered by player", async () => {
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByLabel('Refused only').uncheck();
    const debuggerTable = page.getByRole('table', { name: 'Recent events' });
    await expect.poll(() => debuggerTable.textContent()).toContain('studio-1');
    await page.getByRole('textbox', { name: 'Player' }).fill('studio-2');
    await page.getByRole('button', { name: 'Filter' }).click();
    const players = () => debuggerTable.locator('tbody tr td:nth-child(2)').allTextContents();
    // Both items of studio-2 (one accepted, one refused), and nothing of studio-1.
    await expect.poll(players).toEqual(['studio-2', 'studio-2']);
    const received = await debuggerTable.locator('tbody tr td:nth-child(1)').allTextContents();
    for (const when of received) expect(when).toMatch(/^\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d UTC$/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show every player' }).click();
    await expect.poll(async () => (await players()).includes('studio-1')).toBe(true);
  });

  it('declares a discovered event after showing the change', async () => {
    const definitions = page.getByRole('table', { name: 'Event definitions' });
    await expect.poll(() => definitions.textContent()).toContain('chest_opened');
    expect(await definitions.getByRole('row', { name: /chest_opened/ }).textContent()).toContain(
      'Discovered',
    );
    expect(await definitions.getByRole('row', { name: /chest_opened/ }).textContent()).toContain(
      'gold: number',
    );
    await page.getByRole('button', { name: 'Declare chest_opened' }).focus();
    await page.keyboard.press('Enter');
    const preview = page.getByRole('region', { name: 'Changes to apply' });
    await expect.poll(() => preview.textContent()).toContain('chest_opened');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => definitions.getByRole('row', { name: /chest_opened/ }).textContent(), { timeout: 15_000 })
      .toContain('Declared');
    await expect.poll(() => page.getByRole('button', { name: 'Declare chest_opened' }).count()).toBe(0);
  });
});
