// The Candidates page in a real browser: Debian's Chromium driven by playwright-core. With the keyboard, selects two
// candidates and tries to reject them without a reason (the API's message beside the field, the selection kept), then
// with one (answered per domain); clicks one more and accepts it (a draft seed). Checks the page's script counts the
// selection under the strict CSP. Screenshots go to test-artifacts/review-page/.
// Without playwright-core or /usr/bin/chromium the file is skipped with the reason; SEEDBED_REQUIRE_SERVICES=1 fails
// it. It runs on PostgreSQL (skipped, or failed when required, the same way), as a second backend beside the
// in-process tests, which run accept on the embedded default too.

import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS, API_KEYS_ENV, bearer, inject } from '../support/api-helpers.js';
import { ARTIFACTS, browserReady, launchChromium, openPage, signIn } from '../support/browser.js';
import { addCandidates, verdict } from '../support/candidates.js';
import type { TestSeedbed } from '../support/harness.js';
import { createPostgresTestSeedbed } from '../support/postgres.js';
import { pgAvailable } from '../support/services.js';

const pgUp = await pgAvailable();
const CITER = 'com:sg:alpha-news.com::news';

describe.skipIf(!browserReady || !pgUp)('the Candidates page in Chromium', () => {
  let t: TestSeedbed;
  let browser: Browser;
  let base: string;
  const cspErrors: string[] = [];

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    t = await createPostgresTestSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV }, 'seedbed_ui_candidates');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds',
      headers: bearer(API_KEYS.write),
      payload: { domain: 'alpha-news.com', country: 'sg', category: 'news' },
    });
    const reason = (signal: string, weight: number, evidence: string) => ({ signal, weight, evidence });
    await addCandidates(t, [
      {
        domain: 'lambda-news.com',
        country: 'sg',
        citedBySeeds: [CITER],
        news: verdict('news', 0.91, [reason('news_schema', 2, 'NewsArticle')]),
        guess: {
          code: 'sg',
          confidence: 0.9,
          reasons: [{ ...reason('cctld', 3, 'links to .sg'), country: 'sg' }],
        },
      },
      {
        domain: 'mu-coupons.com',
        country: 'sg',
        citedBySeeds: [CITER],
        news: verdict('not_news', 0.1, [reason('shop_signals_many', -1.5, 'cart links')]),
      },
      {
        domain: 'nu-recipes.com',
        country: 'sg',
        news: verdict('not_news', 0.05, [reason('recipe_schema', -2.5, 'Recipe markup')]),
      },
    ]);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('selects two with the keyboard and rejects them with a reason, after a refusal without one', async () => {
    const { page, context } = await openPage(browser, base, cspErrors);
    await signIn(page, API_KEYS.write, '/ui/candidates');
    expect(await page.locator('tbody tr').count()).toBe(3);
    // Ranked by score: the news site first.
    expect(await page.locator('tbody tr').first().getAttribute('data-domain')).toBe('lambda-news.com');
    for (const domain of ['mu-coupons.com', 'nu-recipes.com']) {
      await page.locator(`input[name="domain"][value="${domain}"]`).focus();
      await page.keyboard.press('Space');
    }
    expect(await page.locator('[data-selected-count]').textContent()).toBe('2 selected');
    // The disabled default button that stops Enter from submitting is not shown.
    expect(await page.locator('.decide button[disabled]').isVisible()).toBe(false);
    await page.locator('button[value="reject"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('#d-reason-error').waitFor();
    expect(await page.locator('#d-reason-error').textContent()).toMatch(/^Too small/);
    expect(await page.locator('input[name="domain"]:checked').count()).toBe(2);
    await page.screenshot({ path: join(ARTIFACTS, 'candidates-reject-error.png'), fullPage: true });
    await page.locator('#d-reason').fill('shops and recipes, not news');
    // Enter in the reason does not send the form (it would go out as the first button's action): its button does.
    await page.locator('#d-reason').press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.value')).toBe('reject');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ui\/candidates\/decide$/);
    await page.locator('[role="status"]').waitFor();
    expect(await page.locator('[role="status"]').textContent()).toBe('Rejected 2 of 2.');
    expect(await page.locator('tr[data-answer] td:nth-child(2)').allTextContents()).toEqual([
      'rejected',
      'rejected',
    ]);
    await page.screenshot({ path: join(ARTIFACTS, 'candidates-rejected.png'), fullPage: true });
    await context.close();
    const mu = await t.seedbed.services.candidates.get('mu-coupons.com');
    expect(mu).toMatchObject({
      state: 'rejected',
      reject_reason: 'shops and recipes, not news',
      decided_by: 'writer',
    });
  }, 60_000);

  it('clicks one candidate, accepts it and sees the draft seed in the answer', async () => {
    const { page, context } = await openPage(browser, base, cspErrors);
    await signIn(page, API_KEYS.write, '/ui/candidates?state=qualified');
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.locator('input[name="domain"][value="lambda-news.com"]').click();
    expect(await page.locator('[data-selected-count]').textContent()).toBe('1 selected');
    await page.locator('button[value="accept"]').click();
    await page.waitForURL(/\/ui\/candidates\/decide$/);
    expect(await page.locator('[role="status"]').textContent()).toBe('Accepted 1 of 1.');
    const seedId = 'com:sg:lambda-news.com::news';
    await page.locator(`a[href="/ui/seeds/${encodeURIComponent(seedId)}"]`).click();
    await page.waitForURL(/lambda-news/);
    expect(await page.locator('[data-verdict]').textContent()).toBe('news');
    await page.screenshot({ path: join(ARTIFACTS, 'candidates-accepted-seed.png'), fullPage: true });
    await context.close();
  }, 60_000);

  it('broke no Content-Security-Policy rule on any page', () => {
    expect(cspErrors).toEqual([]);
  });
});
