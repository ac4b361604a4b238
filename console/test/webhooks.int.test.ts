import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTenant, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import type { Browser, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
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
 * The Webhooks page in a real Chromium against the whole stack and a loopback receiver: an admin
 * adds an endpoint (its secret shown once), pings it, sees the failures of a receiver that answers
 * 500 until the endpoint is paused (on the page and on the overview), resumes it, replays the failed
 * delivery, pauses and resumes it by hand; a viewer sees all of it and may change none of it.
 */

const PASSWORD = 'correct horse battery staple';
const admin = { email: `admin-${crypto.randomUUID()}@example.test`, displayName: 'Ada Admin', role: 'admin' };
const viewer = {
  email: `viewer-${crypto.randomUUID()}@example.test`,
  displayName: 'Vic Viewer',
  role: 'viewer',
};

/** A game server's webhook receiver on loopback: answers `answer` and keeps what it was sent. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
let answer = 204;
const received: Received[] = [];
let receiver: Server;
let receiverUrl: string;

let stack: TestStack;
let browser: Browser;
let tenant: Tenant;
let page: Page;
let orgName: string;
let secret: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/engage`;

  [stack, browser] = await Promise.all([
    startConsoleStack({
      webhooks: true,
      serviceEnv: {
        'control-plane': {
          WEBHOOK_ALLOW_INSECURE_URLS: 'true',
          // Three quick attempts, so a failing receiver exhausts a delivery (and pauses) in a second.
          WEBHOOK_RETRY_DELAYS_MS: '200,200',
          WEBHOOK_POLL_INTERVAL_MS: '100',
        },
      },
    }),
    launchBrowser(),
  ]);
  orgName = `Studio ${crypto.randomUUID().slice(0, 8)}`;
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { name: orgName });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...admin, password: PASSWORD });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...viewer, password: PASSWORD });
  page = await openPage(browser);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function signIn(target: Page, email: string) {
  await target.goto(`${stack.controlPlaneUrl}/console/`);
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password').fill(PASSWORD);
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.getByRole('heading', { level: 1, name: orgName }).waitFor();
}

async function openWebhooks(target: Page) {
  await target.getByRole('link', { name: `Webhooks of ${orgName} Sandbox` }).click();
  await target.getByRole('heading', { level: 1, name: `Webhooks · ${orgName} Sandbox` }).waitFor();
}

const deliveries = (target: Page) => target.getByRole('table', { name: 'Recent deliveries' });
const rowsOf = (table: Locator) => table.locator('tbody tr.delivery');

describe('the Webhooks page', () => {
  it('adds an endpoint and shows its signing secret once', async () => {
    await signIn(page, admin.email);
    await openWebhooks(page);
    await page.getByRole('button', { name: 'Add endpoint' }).waitFor();
    await page.getByLabel('URL').fill(receiverUrl);
    await page.getByLabel('Description (optional)').fill('Game server');
    await page.getByRole('checkbox', { name: 'mission.completed' }).check();
    await page.getByRole('checkbox', { name: 'points.adjusted' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();

    const shown = page.getByRole('region', { name: 'Signing secret of Game server' });
    await shown.waitFor();
    expect(await shown.textContent()).toContain("you won't see it again");
    secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);

    const endpoints = page.getByRole('table', { name: 'Webhook endpoints' });
    const row = endpoints.getByRole('row', { name: /Game server/ });
    expect(await row.textContent()).toContain('mission.completed, points.adjusted');
    expect(await row.textContent()).toContain('Active');
  });

  it('sends a ping the receiver verifies, and shows it delivered', async () => {
    await page.getByRole('button', { name: 'Send ping' }).click();
    const ping = rowsOf(deliveries(page)).filter({ hasText: 'webhook.ping' }).first();
    await expect.poll(() => ping.textContent(), { timeout: 20_000 }).toContain('Delivered');
    expect(await ping.textContent()).toContain('204');
    expect(await ping.textContent()).toMatch(/\d+ ms/);

    expect(received).toHaveLength(1);
    const [delivery] = received;
    const payload = new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: 'webhook.ping', environmentId: tenant.sandbox.environmentId });
    await ping.getByRole('button', { name: 'Show' }).click();
    const shownPayload = deliveries(page).getByTestId('webhook-payload');
    expect(JSON.parse((await shownPayload.textContent()) ?? '')).toMatchObject({ type: 'webhook.ping' });
    await ping.getByRole('button', { name: 'Hide' }).click();
    expect(await seriousViolations(page), 'webhooks').toEqual([]);
  });

  it('shows the failures of a receiver that answers 500, then the endpoint paused', async () => {
    answer = 500;
    await page.getByRole('button', { name: 'Send ping' }).click();
    const failed = rowsOf(deliveries(page)).filter({ hasText: 'Failed' }).first();
    await expect.poll(() => failed.textContent(), { timeout: 20_000 }).toContain('500');
    expect(await failed.textContent()).toContain('webhook.ping');
    const banner = page.getByRole('alert').filter({ hasText: 'Webhook endpoint Game server paused:' });
    await banner.waitFor({ timeout: 20_000 });
    const endpoints = page.getByRole('table', { name: 'Webhook endpoints' });
    await expect
      .poll(() => endpoints.getByRole('row', { name: /Game server/ }).textContent())
      .toContain('Paused');
    expect(received.length).toBeGreaterThanOrEqual(4);
    await failed.getByRole('button', { name: 'Show' }).click();
    await screenshot(page, 'webhooks');
  });

  it("tells the owner on the environment's overview, where Resume sets it active", async () => {
    answer = 204;
    await page.getByRole('link', { name: 'Overview' }).click();
    const sandbox = page.getByRole('region', { name: `${orgName} Sandbox` });
    const notice = sandbox.getByRole('alert').filter({ hasText: 'Webhook endpoint Game server paused:' });
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Resume Game server' }).click();
    await notice.waitFor({ state: 'detached' });
    await openWebhooks(page);
    const row = page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row', { name: /Game server/ });
    expect(await row.textContent()).toContain('Active');
  });

  it('replays the failed delivery: the receiver gets it again with the same webhook-id', async () => {
    await page.getByRole('button', { name: 'Open Game server' }).click();
    const failed = rowsOf(deliveries(page)).filter({ hasText: 'Failed' }).first();
    await failed.waitFor();
    const before = received.length;
    await failed.getByRole('button', { name: /^Replay webhook\.ping/ }).click();
    // Queued again (Pending), then sent: both pings end delivered.
    const pings = rowsOf(deliveries(page)).filter({ hasText: 'webhook.ping' });
    await expect.poll(() => pings.filter({ hasText: 'Delivered' }).count(), { timeout: 20_000 }).toBe(2);
    expect(await pings.count()).toBe(2);
    const replayed = received.slice(before);
    expect(replayed).toHaveLength(1);
    expect(replayed[0]!.headers['webhook-id']).toBe(received[1]!.headers['webhook-id']);
  });

  it('pauses and resumes the endpoint by hand', async () => {
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Webhook endpoint Game server paused:' }).waitFor();
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Webhook endpoint Game server paused:' })
      .waitFor({ state: 'detached' });
    const row = page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row', { name: /Game server/ });
    expect(await row.textContent()).toContain('Active');
  });

  it('lets a viewer see the endpoint and its deliveries but change nothing', async () => {
    const viewerPage = await openPage(browser);
    await signIn(viewerPage, viewer.email);
    await openWebhooks(viewerPage);
    await viewerPage.getByRole('button', { name: 'Open Game server' }).click();
    await rowsOf(deliveries(viewerPage)).first().waitFor();
    expect(await rowsOf(deliveries(viewerPage)).count()).toBe(2);
    for (const name of [
      /^Add endpoint$/,
      /^Send ping$/,
      /^Pause$/,
      /^Rotate secret$/,
      /^Delete$/,
      /^Replay/,
    ]) {
      expect(await viewerPage.getByRole('button', { name }).count(), String(name)).toBe(0);
    }
    expect(await viewerPage.getByRole('heading', { name: 'Endpoint Game server' }).count()).toBe(1);
    await viewerPage.context().close();
  });

  it('rotates the secret (shown once, with when the old one expires) and deletes after asking', async () => {
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await answerConfirmation(page, 'Rotate secret');
    const rotated = page.getByRole('region', { name: 'New signing secret of Game server' });
    await rotated.waitFor();
    expect(await rotated.textContent()).toMatch(/signed with both secrets until .+ UTC/);
    const next = (await rotated.getByTestId('webhook-secret').textContent()) ?? '';
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await answerConfirmation(page, 'Cancel');
    expect(await page.getByRole('table', { name: 'Webhook endpoints' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await answerConfirmation(page, 'Delete');
    await page.getByText('No endpoints yet.').waitFor();
  });
});
