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
 * The Players and Leaderboards pages in a real Chromium against the whole stack: a player's events
 * complete a mission and earn points, support finds the player and adjusts the balance with a
 * reason, the board shows the player's standing, and a viewer may only look.
 */

const PASSWORD = 'correct horse battery staple';
const support = {
  email: `support-${crypto.randomUUID()}@example.test`,
  displayName: 'Sam Support',
  role: 'support',
};
const designer = {
  email: `designer-${crypto.randomUUID()}@example.test`,
  displayName: 'Dee Designer',
  role: 'designer',
};
const viewer = {
  email: `viewer-${crypto.randomUUID()}@example.test`,
  displayName: 'Vic Viewer',
  role: 'viewer',
};
const playerId = `player-${crypto.randomUUID().slice(0, 8)}`;

let stack: TestStack;
let browser: Browser;
let tenant: Tenant;
let page: Page;
let orgName: string;

const v1 = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: { authorization: tenant.sandbox.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

/** Polls the /v1 balance until it is `expected` (expect.poll works only inside a test). */
async function balanceReaches(expected: number) {
  const deadline = Date.now() + 30_000;
  let balance: unknown;
  while (Date.now() < deadline) {
    balance = (await v1('GET', `/v1/points?PlayerId=${playerId}`)).body.balance;
    if (balance === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the balance stayed ${String(balance)}, not ${expected}`);
}

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
      leaderboards: [
        {
          key: 'levels',
          name: 'Levels',
          scoreSource: { type: 'Event', event: 'level_completed', property: 'level' },
          aggregation: 'Max',
          topSize: 10,
        },
      ],
    } as never,
  });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...support, password: PASSWORD });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...viewer, password: PASSWORD });
  await addOperator(stack.controlPlaneUrl, tenant.organizationId, { ...designer, password: PASSWORD });
  page = await openPage(browser);

  // The game's server: the player reads its missions, then completes one, earning 5 points.
  expect((await v1('POST', '/v1/missions', { playerId })).status).toBe(200);
  const sent = await v1('POST', '/v1/events', {
    events: [{ eventKey: 'level_completed', playerId, properties: { level: 7 } }],
  });
  expect(sent.body).toMatchObject({ accepted: 1, rejected: 0 });
  await balanceReaches(5);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function expectAccessible(target: Page, name: string) {
  expect(await seriousViolations(target), name).toEqual([]);
  await screenshot(target, name);
}

async function signIn(target: Page, email: string) {
  await target.goto(`${stack.controlPlaneUrl}/console/`);
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Password').fill(PASSWORD);
  await target.getByRole('button', { name: 'Sign in' }).click();
  await target.getByRole('heading', { level: 1, name: orgName }).waitFor();
}

async function findPlayer(target: Page) {
  await target.getByRole('link', { name: `Players of ${orgName} Sandbox` }).click();
  await target.getByRole('heading', { level: 1, name: `Players · ${orgName} Sandbox` }).waitFor();
  await target.getByLabel('Player id').fill(playerId);
  await target.getByLabel('Player id').press('Enter');
  await target.getByRole('heading', { level: 2, name: `Player ${playerId}` }).waitFor();
}

describe('the Players and Leaderboards pages', () => {
  it('finds a player whose id is 200 characters outside the BMP, as the API counts them', async () => {
    // 400 UTF-16 units: an input that counted units (maxLength) would cut it to another id.
    const astral = `astral-${'\u{1F600}'.repeat(193)}`;
    expect((await v1('GET', `/v1/points?PlayerId=${encodeURIComponent(astral)}`)).status).toBe(200);
    const other = await openPage(browser);
    try {
      await signIn(other, support.email);
      await other.getByRole('link', { name: `Players of ${orgName} Sandbox` }).click();
      await other.getByLabel('Player id').fill(astral);
      expect(await other.getByLabel('Player id').inputValue()).toBe(astral);
      await other.getByLabel('Player id').press('Enter');
      await other.getByRole('heading', { level: 2, name: `Player ${astral}` }).waitFor();
    } finally {
      await other.close();
    }
  });

  it('finds a player by id: the mission completed, the points earned, the standing', async () => {
    await signIn(page, support.email);
    await findPlayer(page);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('5 points');
    const missions = page.getByRole('table', { name: 'Missions' });
    await missions.getByRole('row', { name: /First level/ }).waitFor();
    expect(await missions.getByRole('row', { name: /First level/ }).textContent()).toContain('Completed');
    const standings = page.getByRole('table', { name: 'Board standings' });
    await standings.getByRole('row', { name: /Levels/ }).waitFor();
    expect(await standings.getByRole('row', { name: /Levels/ }).textContent()).toContain('7');
    await page.getByRole('table', { name: 'Points journal' }).getByRole('cell', { name: 'Reward' }).waitFor();
    await expectAccessible(page, 'players');
  });

  it('lets support adjust with a reason: the balance and the journal show it', async () => {
    await page.getByLabel('Amount (negative to debit)').fill('10');
    await page.getByLabel('Reason').fill('Goodwill for the outage');
    await page.getByRole('button', { name: 'Adjust', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Adjusted' }).textContent())
      .toContain('the balance is 15 points');
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('15 points');
    const journal = page.getByRole('table', { name: 'Points journal' });
    await journal.getByRole('cell', { name: 'Goodwill for the outage' }).waitFor();
    expect(await journal.getByRole('row').nth(1).textContent()).toContain('+10');

    // A debit below zero is refused with the ledger's code, and the balance stays.
    await page.getByLabel('Amount (negative to debit)').fill('-1000');
    await page.getByLabel('Reason').fill('Too much');
    await page.getByRole('button', { name: 'Adjust', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('points.insufficient_balance');
    expect(await page.getByTestId('balance').textContent()).toBe('15 points');
    // Support is not a designer: no settling.
  });

  it('keeps the idempotency key when the same adjustment is sent again after a lost answer', async () => {
    const keys: string[] = [];
    let loseAnswer = true;
    await page.route('**/points/adjustments', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (!loseAnswer) return route.continue();
      loseAnswer = false;
      await route.fetch(); // the ledger moves the points, the browser never hears of it
      return route.abort('connectionreset');
    });
    await page.getByLabel('Amount (negative to debit)').fill('3');
    await page.getByLabel('Reason').fill('Answer lost on the way');
    await page.getByRole('button', { name: 'Adjust', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('console.network');
    await page.getByRole('button', { name: 'Send again' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Adjusted' }).textContent())
      .toContain('the balance is 18 points');
    await page.unroute('**/points/adjustments');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect((await v1('GET', `/v1/points?PlayerId=${playerId}`)).body.balance).toBe(18);
  });

  it("shows the board with the player's standing, its periods, and no Settle now for support", async () => {
    await page.getByRole('table', { name: 'Board standings' }).getByRole('link', { name: 'Levels' }).click();
    await page.getByRole('heading', { level: 1, name: `Leaderboards · ${orgName} Sandbox` }).waitFor();
    await expect.poll(() => page.getByTestId('standing').textContent()).toContain('rank 1 with 7');
    const top = page.getByRole('table', { name: 'Top' });
    expect(await top.getByRole('row').nth(1).textContent()).toContain('(this player)');
    await page.getByRole('table', { name: 'Periods' }).getByRole('cell', { name: 'Open' }).waitFor();
    expect(await page.getByRole('button', { name: 'Settle now' }).count()).toBe(0);
    await expectAccessible(page, 'leaderboards');
  });

  it("links a board row to its player's page: operators see whose row it is", async () => {
    const row = page.getByRole('table', { name: 'Top' }).getByRole('row').nth(1);
    await row.getByRole('link', { name: playerId, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Players · ${orgName} Sandbox` }).waitFor();
    expect(new URL(page.url()).searchParams.get('player')).toBe(playerId);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('18 points');
    expect(policyViolations(page)).toEqual([]);
  });

  it('lets a designer settle the Sandbox board now, then shows the settled results', async () => {
    const designerPage = await openPage(browser);
    await signIn(designerPage, designer.email);
    await designerPage.getByRole('link', { name: `Leaderboards of ${orgName} Sandbox` }).click();
    await designerPage.getByLabel('As player').fill(playerId);
    await designerPage.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => designerPage.getByTestId('standing').textContent()).toContain('rank 1 with 7');
    await designerPage.getByText('No period has settled yet.').waitFor();
    await designerPage.getByRole('button', { name: 'Settle now' }).click();
    await answerConfirmation(designerPage, 'Settle now');
    // Not just 'Settled': the results' 'Loading the settled results…' is a status too.
    await expect
      .poll(() => designerPage.getByRole('status').filter({ hasText: 'Settled the period' }).textContent(), {
        timeout: 20_000,
      })
      .toContain('1 participants');
    const results = designerPage.getByRole('table', { name: 'Settled results' });
    await results.getByRole('row').nth(1).waitFor();
    expect(await results.getByRole('row').nth(1).textContent()).toContain('(this player)');
    await designerPage
      .getByRole('table', { name: 'Periods' })
      .getByRole('cell', { name: 'Settled' })
      .waitFor();
    await designerPage.context().close();
  });

  it('shows a viewer no adjustment form, and the server refuses the viewer an adjustment', async () => {
    const viewerPage = await openPage(browser);
    await signIn(viewerPage, viewer.email);
    await findPlayer(viewerPage);
    await expect.poll(() => viewerPage.getByTestId('balance').textContent()).toBe('18 points');
    expect(await viewerPage.getByRole('heading', { name: 'Adjust points' }).count()).toBe(0);
    const refused = await viewerPage.evaluate(
      async ({ environmentId, player }) => {
        const session = await (await fetch('/admin/v1/session')).json();
        const response = await fetch(
          `/admin/v1/environments/${environmentId}/players/${player}/points/adjustments`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-csrf-token': session.csrfToken,
              'idempotency-key': crypto.randomUUID(),
            },
            body: JSON.stringify({ amount: 100, reason: 'viewer tries' }),
          },
        );
        return { status: response.status, code: (await response.json()).code };
      },
      { environmentId: tenant.sandbox.environmentId, player: playerId },
    );
    expect(refused).toEqual({ status: 403, code: 'admin.forbidden' });
    expect((await v1('GET', `/v1/points?PlayerId=${playerId}`)).body.balance).toBe(18);
    await viewerPage.context().close();
  });
});
