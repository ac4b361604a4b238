import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, quiet and offline but for loopback: nothing reaches out while a test runs. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One browser per test file; Playwright gives each launch a fresh user-data directory of its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** What the page's Content-Security-Policy refused, in the order the browser reported it. */
const refusedByPolicy = new WeakMap<Page, string[]>();

/**
 * A signed-out operator's own window (cookies apart), wide as a laptop's. The console is loaded as
 * the gateway serves it, its Content-Security-Policy enforced: every refusal is recorded (see
 * `policyViolations`).
 */
export async function openPage(browser: Browser, size = { width: 1366, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport: size });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const refused: string[] = [];
  refusedByPolicy.set(page, refused);
  await page.exposeBinding('reportPolicyViolation', (_source, violation: string) => {
    refused.push(violation);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (globalThis as unknown as { reportPolicyViolation: (v: string) => void })
        .reportPolicyViolation;
      report(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} at ${event.sourceFile}`);
    });
  });
  return page;
}

/** Everything the console's Content-Security-Policy refused on this page since it opened. */
export function policyViolations(page: Page): readonly string[] {
  return refusedByPolicy.get(page) ?? [];
}

const axeSource: string = createRequire(import.meta.url)('axe-core').source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** The page's serious and critical accessibility violations (axe-core's WCAG 2.x A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated by the browser's debugging protocol, which the page's policy does not govern.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } }
    ).axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    })) as { violations: AxeViolation[] };
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const SCREENSHOTS = new URL('../../../docs/console/', import.meta.url);

/** The page as an operator sees it, for docs/console.md. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

/**
 * Answers the console's own confirmation (a modal alert dialog, never the browser's `confirm()`)
 * with the button named `answer` ("Cancel", or the action's own label), once it has closed.
 */
export async function answerConfirmation(page: Page, answer: string): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: answer, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}
