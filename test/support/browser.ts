// The review page's browser tests share this: Debian's Chromium driven by playwright-core, a page per test with
// Content-Security-Policy complaints collected, sign-in with the keyboard, and where screenshots go. Without
// playwright-core or /usr/bin/chromium `browserReady` is false with the reason printed (SEEDBED_REQUIRE_SERVICES=1
// fails instead).
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serviceOrSkip } from './services.js';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** Screenshots kept as artifacts of the run (not committed). */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'review-page');

// Types only (erased at run time): the module itself is loaded below, so its absence is a skip with the reason.
type Playwright = typeof import('playwright-core');

let playwright: Playwright | null = null;
export const browserReady = await serviceOrSkip(`a browser (playwright-core + ${CHROMIUM})`, async () => {
  await access(CHROMIUM);
  playwright = await import('playwright-core');
});

export function launchChromium(): Promise<Browser> {
  if (!playwright) throw new Error('playwright-core is not loaded (check browserReady first)');
  return playwright.chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A fresh context and page on `base`; console messages about the CSP are pushed to `cspErrors`. */
export async function openPage(
  browser: Browser,
  base: string,
  cspErrors: string[],
  width = 1280,
  height = 900,
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: base });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
  });
  return { page, context };
}

/** Signs in with the keyboard only: type the key, press Enter; lands on `next`. */
export async function signIn(page: Page, key: string, next: string): Promise<void> {
  await page.goto(next);
  await page.waitForURL(/\/ui\/login/);
  await page.locator('#key').fill(key);
  await page.locator('#key').press('Enter');
  await page.waitForURL(new RegExp(next.replace(/[?]/g, '\\?')));
}
