// The review page's filters in a real browser, over sources a contract batch measured on the fake internet: drafts
// by language, AI policy and freshness and sorted by publication rate (each list the same as the API's for the same
// filter), "promote all matching" answered per seed with the API agreeing, the changes page filtered by kind, and the
// dashboard's counts leading to their lists. The facts sites date their items against FACTS_NOW, so this Seedbed's
// clock runs that far behind the real one. Screenshots go to test-artifacts/review-page/.

import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FACTS_NOW,
  FACTS_SITES,
  type FakeInternet,
  startFakeInternet,
} from '../fixtures/fake-internet/index.js';
import { CANARY_URL } from '../fixtures/fake-internet/sites.js';
import { testFetcher } from '../fixtures/fake-internet/test-fetcher.js';
import { API_KEYS, API_KEYS_ENV, bearer, createApiSeedbed, inject } from '../support/api-helpers.js';
import { ARTIFACTS, browserReady, launchChromium, openPage, signIn } from '../support/browser.js';
import type { TestSeedbed } from '../support/harness.js';
import { seedIdOf } from '../support/ids.js';

const HOSTS = [
  FACTS_SITES.busy,
  FACTS_SITES.fewADay,
  FACTS_SITES.weekly,
  FACTS_SITES.stale,
  FACTS_SITES.newsOnly,
  FACTS_SITES.aiRobots,
];

describe.skipIf(!browserReady)('the review page filters in Chromium', () => {
  let net: FakeInternet;
  let t: TestSeedbed;
  let browser: Browser;
  let base: string;
  const cspErrors: string[] = [];
  const open = (width = 1280, height = 900): Promise<{ page: Page; context: BrowserContext }> =>
    openPage(browser, base, cspErrors, width, height);
  /** The seed ids the API lists for a query (read key). */
  const apiIds = async (query: string): Promise<string[]> => {
    const res = await inject(t.app, { url: `/api/v1/seeds?${query}`, headers: bearer(API_KEYS.read) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((s: { seed_id: string }) => s.seed_id);
  };
  const rowIds = (page: Page) => page.locator('tbody tr small').allTextContents();

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    net = await startFakeInternet();
    const skew = Date.now() - FACTS_NOW.getTime();
    t = await createApiSeedbed(
      { SEEDBED_API_KEYS: API_KEYS_ENV, SEEDBED_NETWORK_CANARY: CANARY_URL },
      { fetcher: testFetcher(net).fetcher, clock: () => new Date(Date.now() - skew) },
    );
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    t.startWorkers(['CONTRACT_QUEUE']);
    const batch = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/queues/contract',
      headers: bearer(API_KEYS.write),
      payload: { country: 'fr', category: 'news', domainIds: HOSTS.map((h) => `other:fr:${h}`) },
    });
    expect(batch.statusCode, batch.body).toBe(202);
    const done = await t.waitForBatch(batch.json().batchId, 90_000);
    expect(done.status).toBe('completed');
    // Changes come from a second discovery that differs from the first; these rows stand for such runs.
    const at = (daysAgo: number) => new Date(FACTS_NOW.getTime() - daysAgo * 86_400_000).toISOString();
    await t.seedbed.database.db
      .insertInto('domain_changes')
      .values(
        ['feed_removed', 'robots_disallowed', 'feed_removed', 'site_dead'].map((kind, i) => ({
          id: `0-${i}`,
          registrable_domain: HOSTS[i] as string,
          domain_id: `other:fr:${HOSTS[i]}`,
          kind,
          message: `${kind} on ${HOSTS[i]}`,
          before: null,
          after: null,
          evidence: '{}',
          batch_id: null,
          detected_at: at(3 - i),
        })),
      )
      .execute();
    browser = await launchChromium();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await net?.close();
  });

  it('filters the drafts by language, AI policy and freshness, as the API does', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.write, '/ui/seeds?country=fr');
    expect(await rowIds(page)).toEqual(await apiIds('country=fr&status=draft'));
    // Keyboard only: type the language, choose the freshness, Enter submits the filter form.
    await page.locator('input[name="language"]').fill('fr');
    await page.locator('select[name="freshness"]').selectOption('fresh');
    await page.locator('input[name="language"]').press('Enter');
    await page.waitForURL(/language=fr.*freshness=fresh|freshness=fresh.*language=fr/);
    const frFresh = await rowIds(page);
    expect(frFresh).toContain(seedIdOf(FACTS_SITES.busy, 'fr'));
    expect(frFresh).not.toContain(seedIdOf(FACTS_SITES.stale, 'fr'));
    expect(frFresh).toEqual(await apiIds('country=fr&status=draft&language=fr&freshness=fresh'));
    await page.screenshot({ path: join(ARTIFACTS, 'seeds-language-fresh.png'), fullPage: true });

    await page.goto('/ui/seeds?country=fr');
    await page.locator('select[name="ai"]').selectOption('disallowed');
    await page.locator('.filters button[type="submit"]').press('Enter');
    await page.waitForURL(/ai=disallowed/);
    expect(await rowIds(page)).toEqual([seedIdOf(FACTS_SITES.aiRobots, 'fr')]);

    await page.goto('/ui/seeds?country=fr');
    await page.locator('select[name="freshness"]').selectOption('stale');
    await page.locator('.filters button[type="submit"]').press('Enter');
    await page.waitForURL(/freshness=stale/);
    expect(await rowIds(page)).toEqual([seedIdOf(FACTS_SITES.stale, 'fr')]);
    expect(await page.locator('tbody tr').first().textContent()).toMatch(/stale/);
    await context.close();
  }, 60_000);

  it('sorts the drafts by publication rate, highest first', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.write, '/ui/seeds?country=fr');
    await page.locator('select[name="sort"]').selectOption('-rate');
    await page.locator('.filters button[type="submit"]').press('Enter');
    await page.waitForURL(/sort=-rate/);
    const sorted = await rowIds(page);
    expect(sorted[0]).toBe(seedIdOf(FACTS_SITES.busy, 'fr'));
    expect(sorted).toEqual(await apiIds('country=fr&status=draft&sort=-rate'));
    // The rate each row shows, top to bottom: measured ones descending, then the unmeasured.
    const rates = await page
      .locator('tbody td[data-rate]')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-rate')));
    expect(rates.length).toBe(sorted.length);
    const measured = rates.filter((r) => r !== '').map(Number);
    expect(rates.slice(measured.length).every((r) => r === '')).toBe(true);
    expect(measured.length).toBeGreaterThan(2);
    expect(measured).toEqual([...measured].sort((a, b) => b - a));
    await page.screenshot({ path: join(ARTIFACTS, 'seeds-by-rate.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('promotes all drafts matching a filter with the keyboard, answered per seed, and the API agrees', async () => {
    const expected = await apiIds('country=fr&status=draft&freshness=fresh');
    expect(expected.length).toBeGreaterThan(1);
    const { page, context } = await open();
    await signIn(page, API_KEYS.write, '/ui/seeds?country=fr&freshness=fresh');
    const button = page.locator('button[value="promote-matching"]');
    expect(await button.textContent()).toBe(`Promote all ${expected.length} matching drafts`);
    await button.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/seeds\/bulk$/);
    expect(await page.locator('[role="status"]').textContent()).toBe(
      `Promoted ${expected.length} of ${expected.length} drafts matching country fr, freshness fresh.`,
    );
    expect(await page.locator('tbody tr td:first-child a').allTextContents()).toEqual(expected);
    await page.screenshot({ path: join(ARTIFACTS, 'promote-matching.png'), fullPage: true });
    expect(await apiIds('country=fr&status=active')).toEqual(expected);
    expect(await apiIds('country=fr&status=draft&freshness=fresh')).toEqual([]);
    await context.close();
  }, 60_000);

  it('filters the changes by kind', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.read, '/ui/changes');
    expect(await page.locator('tbody tr').count()).toBe(4);
    await page.locator('select[name="kind"]').selectOption('feed_removed');
    await page.locator('.filters button[type="submit"]').press('Enter');
    await page.waitForURL(/kind=feed_removed/);
    expect(await page.locator('tbody tr td:nth-child(4)').allTextContents()).toEqual([
      `feed_removed on ${HOSTS[2]}`,
      `feed_removed on ${HOSTS[0]}`,
    ]);
    await page.screenshot({ path: join(ARTIFACTS, 'changes-by-kind.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('the dashboard counts last week’s changes and links to them', async () => {
    const { page, context } = await open();
    await signIn(page, API_KEYS.read, '/ui');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
    const link = page.locator('[data-dashboard="changes"] a');
    expect(await link.textContent()).toMatch(/^4 since \d{4}-\d{2}-\d{2}$/);
    await link.press('Enter');
    await page.waitForURL(/\/ui\/changes\?since=/);
    expect(await page.locator('tbody tr').count()).toBe(4);
    await context.close();
  }, 60_000);

  it('the seed list and its filters are readable on a phone: no sideways scrolling of the page', async () => {
    const { page, context } = await open(390, 844);
    await signIn(page, API_KEYS.read, '/ui/seeds?country=fr&status=active');
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'seeds-phone.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
