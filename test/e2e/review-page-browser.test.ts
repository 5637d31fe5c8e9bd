// The review page in a real browser: Debian's Chromium driven by playwright-core. Signs in with a key, filters,
// opens a seed, edits with a validation error then a fix, accepts a proposed revision, bulk-promotes with the keyboard, watches a batch finish
// (the page's own script following its progress under the strict CSP), and checks a read-only key cannot decide.
// Screenshots go to test-artifacts/review-page/ (SEEDBED_UPDATE_README_SCREENSHOT=1 also writes docs/review-page.png).
// Without playwright-core or /usr/bin/chromium the file is skipped with the reason; SEEDBED_REQUIRE_SERVICES=1 fails it.

import { copyFile, mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext as Context, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeInternet, startFakeInternet } from '../fixtures/fake-internet/index.js';
import { CANARY_URL, SITES } from '../fixtures/fake-internet/sites.js';
import { testFetcher } from '../fixtures/fake-internet/test-fetcher.js';
import {
  API_KEYS,
  API_KEYS_ENV,
  bearer,
  createApiSeedbed,
  inject,
  proposeAgainstEdit,
} from '../support/api-helpers.js';
import { ARTIFACTS, browserReady, launchChromium, openPage, signIn } from '../support/browser.js';
import type { TestSeedbed } from '../support/harness.js';
import { seedIdOf } from '../support/ids.js';

const README_SHOT = join(process.cwd(), 'docs', 'review-page.png');

describe.skipIf(!browserReady)('the review page in Chromium', () => {
  let net: FakeInternet;
  let t: TestSeedbed;
  let browser: Browser;
  let base: string;
  let batchId: string;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    net = await startFakeInternet();
    t = await createApiSeedbed(
      { SEEDBED_API_KEYS: API_KEYS_ENV, SEEDBED_NETWORK_CANARY: CANARY_URL },
      { fetcher: testFetcher(net).fetcher },
    );
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    for (const [domain, name] of [
      ['alpha-news.com', 'Alpha News'],
      ['beta-news.com', 'Beta News'],
    ])
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        headers: bearer(API_KEYS.write),
        payload: { domain, country: 'sg', category: 'news', name },
      });
    // Queued, not yet worked: the batch page is opened before the workers start, to watch it finish.
    const batch = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/queues/contract',
      headers: bearer(API_KEYS.write),
      payload: {
        country: 'sg',
        category: 'news',
        domainIds: [SITES.news, SITES.disallow, SITES.atom].map((h) => `other:sg:${h}`),
      },
    });
    batchId = batch.json().batchId;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await net?.close();
  });

  const open = (width = 1280, height = 900): Promise<{ page: Page; context: Context }> =>
    openPage(browser, base, cspErrors, width, height);

  it('signs in with a key and watches a batch finish, following its progress live', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.write, `/ui/batches/${batchId}`);
    const progress = page.locator('#progress');
    expect(await page.locator('[data-refresh]').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'batch-running.png') });
    t.startWorkers(['CONTRACT_QUEUE']);
    // No reload: the page's script re-reads the progress block until the batch is done.
    await page.locator('#progress[data-batch-status^="completed"]').waitFor({ timeout: 90_000 });
    expect(await progress.first().textContent()).toMatch(/3 of 3 items answered/);
    expect(await page.locator('[data-refresh]').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'batch-finished.png'), fullPage: true });
    await context.close();
  }, 120_000);

  it('filters the drafts, opens a seed and shows the robots.txt line that decided', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.write, '/ui/seeds');
    expect(await page.locator('tbody tr').count()).toBe(5);
    await page.screenshot({ path: join(ARTIFACTS, 'seeds.png'), fullPage: true });
    if (process.env.SEEDBED_UPDATE_README_SCREENSHOT === '1')
      await copyFile(join(ARTIFACTS, 'seeds.png'), README_SHOT);
    await page.locator('select[name="robots_allowed"]').selectOption('false');
    await page.locator('.filters button[type="submit"]').press('Enter');
    await page.waitForURL(/robots_allowed=false/);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.locator(`a[href="/ui/seeds/${encodeURIComponent(seedIdOf(SITES.disallow))}"]`).press('Enter');
    await page.waitForURL(/disallow\.test/);
    const decided = await page.locator('mark[data-deciding-line]').textContent();
    expect(decided).toMatch(/Disallow: \//);
    await page.screenshot({ path: join(ARTIFACTS, 'seed.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('edits a contract: a validation error beside its field, then a fix saves it', async () => {
    const { page, context } = await open();
    const seed = `/ui/seeds/${encodeURIComponent('com:sg:beta-news.com::news')}`;
    await signIn(page, API_KEYS.write, seed);
    await page.locator('a.button[href$="/edit"]').press('Enter');
    await page.waitForURL(/\/edit$/);
    await page.locator('#f-schedule').fill('every day');
    await page.locator('#f-schedule').press('Enter');
    await page.locator('#f-schedule-error').waitFor();
    expect(await page.locator('#f-schedule-error').textContent()).toBe('must be a 5-field cron expression');
    await page.screenshot({ path: join(ARTIFACTS, 'edit-error.png'), fullPage: true });
    await page.locator('#f-schedule').fill('0 */6 * * *');
    await page.locator('#f-schedule').press('Enter');
    await page.waitForURL(/done=saved/);
    expect(await page.locator('.flash').textContent()).toBe('saved, version 2');
    await context.close();
  }, 60_000);

  it('accepts the revision a contract run proposed against a person’s edit', async () => {
    const seedId = seedIdOf(SITES.disallow);
    const api = `/api/v1/seeds/${encodeURIComponent(seedId)}`;
    await proposeAgainstEdit(t, SITES.disallow);
    const { page, context } = await open();
    await signIn(page, API_KEYS.write, `/ui/seeds/${encodeURIComponent(seedId)}`);
    const proposal = page.locator('[data-revision-status="proposed"]');
    expect(await proposal.count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'proposal.png'), fullPage: true });
    await page.locator('[data-revision-status="proposed"] form[action$="/accept"] button').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=revision/);
    expect(await page.locator('.flash').textContent()).toMatch(/^revision \d+ accepted$/);
    expect(await page.locator('[data-revision-status="proposed"]').count()).toBe(0);
    const seed = (await inject(t.app, { url: api, headers: bearer(API_KEYS.read) })).json();
    expect(seed.schedule).not.toBe('5 5 * * *');
    await context.close();
  }, 120_000);

  it('bulk-promotes a selection with the keyboard and answers per seed', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.write, '/ui/seeds?country=sg');
    await page.locator('[data-select-all]').focus();
    await page.keyboard.press('Space');
    expect(await page.locator('[data-selected-count]').textContent()).toBe('5 selected');
    await page.locator('button[value="promote"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/seeds\/bulk$/);
    expect(await page.locator('[role="status"]').textContent()).toBe('Promoted 5 of 5.');
    await page.screenshot({ path: join(ARTIFACTS, 'bulk-result.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('a read-only key can look but not decide', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.read, '/ui/seeds?status=active');
    expect(await page.locator('tbody tr').count()).toBe(5);
    expect(await page.locator('button[value="promote"]').count()).toBe(0);
    await page.goto(`/ui/seeds/${encodeURIComponent(seedIdOf(SITES.news))}`);
    expect(await page.locator('form[action$="/status"]').count()).toBe(0);
    await page.goto(`/ui/seeds/${encodeURIComponent(seedIdOf(SITES.news))}/edit`);
    expect(await page.locator('[role="alert"]').textContent()).toMatch(/lacks the write scope/);
    await context.close();
  }, 60_000);

  it('is readable on a phone: no sideways scrolling of the page', async () => {
    const { page, context } = await open(390, 844);
    await signIn(page, API_KEYS.read, `/ui/seeds/${encodeURIComponent(seedIdOf(SITES.news))}`);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'seed-phone.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
