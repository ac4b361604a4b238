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

/** A signed-out operator's own window (cookies apart), wide as a laptop's. */
export async function openPage(browser: Browser, size = { width: 1366, height: 900 }): Promise<Page> {
  // The console's CSP admits only its own scripts: axe is injected past it, by the test alone.
  const context = await browser.newContext({ viewport: size, bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  return context.newPage();
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
  await page.addScriptTag({ content: axeSource });
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
