// The review page (/ui) over HTTP, in process: sign-in with a key kept in an HttpOnly cookie, read-only keys that
// cannot decide, the Origin check on every POST, the CSP on every page, escaping, filters, the evidence of a seed
// made by a real contract run (robots.txt rule that decided), edit validation, bulk answers and batch pages.

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
import type { TestSeedbed } from '../support/harness.js';
import { seedIdOf } from '../support/ids.js';

const ORIGIN = 'http://seedbed.local';
const HOST = { host: 'seedbed.local' };
const href = (seedId: string) => `/ui/seeds/${encodeURIComponent(seedId)}`;

describe('the review page', () => {
  let net: FakeInternet;
  let t: TestSeedbed;
  let contractBatch: string;
  beforeAll(async () => {
    net = await startFakeInternet();
    t = await createApiSeedbed(
      { SEEDBED_API_KEYS: API_KEYS_ENV, SEEDBED_NETWORK_CANARY: CANARY_URL },
      { fetcher: testFetcher(net).fetcher },
    );
    t.startWorkers(['CONTRACT_QUEUE']);
    const batch = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/queues/contract',
      headers: bearer(API_KEYS.write),
      payload: {
        country: 'sg',
        category: 'news',
        domainIds: [SITES.news, SITES.disallow].map((h) => `other:sg:${h}`),
      },
    });
    contractBatch = batch.json().batchId;
    await t.waitForBatch(contractBatch, 90_000);
    for (const [domain, name] of [
      ['alpha-news.com', 'Alpha <script>alert(1)</script>'],
      ['beta-news.com', 'Beta'],
      ['gamma.gov.sg', 'Gamma'],
    ])
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        headers: bearer(API_KEYS.write),
        payload: { domain, country: 'sg', category: 'news', name },
      });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await net.close();
  });

  async function signIn(key: string): Promise<string> {
    const response = await inject(t.app, {
      method: 'POST',
      url: '/ui/login',
      headers: { ...HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ key, next: '/ui/seeds' }).toString(),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/ui/seeds');
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/ui/);
    expect(cookie).not.toMatch(/Secure/); // plain http here; https adds it
    return cookie.split(';')[0] as string;
  }
  const get = (url: string, cookie: string) =>
    inject(t.app, { method: 'GET', url, headers: { ...HOST, cookie } });
  const post = (url: string, cookie: string, form: Record<string, string | string[]>, origin = ORIGIN) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return inject(t.app, {
      method: 'POST',
      url,
      headers: { ...HOST, cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  };

  it('asks for a key (redirect to the sign-in form) and refuses a wrong one', async () => {
    const page = await get('/ui/seeds?country=sg', '');
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/ui/login?next=${encodeURIComponent('/ui/seeds?country=sg')}`);
    const form = await get('/ui/login', '');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="key"');
    const wrong = await post('/ui/login', '', { key: 'not-a-key-0123456789' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('That key is not valid.');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('sets a strict Content-Security-Policy without inline code on every page, and serves its own script', async () => {
    const cookie = await signIn(API_KEYS.read);
    for (const url of ['/ui', '/ui/seeds', '/ui/batches', '/ui/login', href(seedIdOf(SITES.news))]) {
      const response = await get(url, cookie);
      expect(response.statusCode, url).toBe(200);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      // No inline script or style: only the page's own files.
      expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(response.body).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    }
    const js = await get('/ui/assets/app.js', '');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
  });

  it('escapes what seeds say about themselves', async () => {
    const cookie = await signIn(API_KEYS.read);
    const list = await get('/ui/seeds?country=sg', cookie);
    expect(list.body).toContain('Alpha &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(list.body).not.toContain('<script>alert(1)');
  });

  it('filters drafts by authority, robots.txt, fetch type and main feed, and sorts by when they were found', async () => {
    const cookie = await signIn(API_KEYS.read);
    const ids = async (q: string) =>
      [...(await get(`/ui/seeds?${q}`, cookie)).body.matchAll(/<small>([^<]+)<\/small>/g)].map((m) => m[1]);
    expect(await ids('authority=gov')).toEqual(['gov:sg:gamma.gov.sg::news']);
    expect(await ids('robots_allowed=false')).toEqual([seedIdOf(SITES.disallow)]);
    expect(await ids('fetch_type=rss&main_feed=true')).toEqual([seedIdOf(SITES.news)]);
    const newest = await ids('sort=-found');
    expect(newest[0]).toBe('gov:sg:gamma.gov.sg::news');
    expect(newest.at(-1)).toMatch(/::news$/);
    expect((await ids('sort=found'))[0]).not.toBe('gov:sg:gamma.gov.sg::news');
    // A malformed filter value is dropped, not an error page.
    expect((await get('/ui/seeds?authority=nope&offset=x', cookie)).statusCode).toBe(200);
  });

  it('shows one seed with its evidence: homepage, the robots.txt line that decided, sitemaps, feeds, liveness, batch', async () => {
    const cookie = await signIn(API_KEYS.read);
    const disallowed = await get(href(seedIdOf(SITES.disallow)), cookie);
    expect(disallowed.statusCode).toBe(200);
    expect(disallowed.body).toMatch(
      /<mark data-deciding-line><span class="ln">\d+<\/span> Disallow: \/\s*<\/mark>/,
    );
    expect(disallowed.body).toContain('<strong class="bad">disallowed</strong>');
    const news = (await get(href(seedIdOf(SITES.news)), cookie)).body;
    for (const section of [
      'Homepage',
      'robots.txt',
      'Sitemaps',
      'Feeds',
      'Liveness history',
      'Where it came from',
    ])
      expect(news).toContain(`>${section}</h2>`);
    expect(news).toMatch(/<td>main<\/td>/);
    expect(news).toContain(`/ui/batches/${contractBatch}`);
    expect(news).toContain('/evidence/robots.txt');
    const robots = await get(`${href(seedIdOf(SITES.news))}/evidence/robots.txt`, cookie);
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    // A read-only key is offered no decision.
    expect(news).not.toContain('Edit contract');
    expect((await get('/ui/seeds/nope', cookie)).statusCode).toBe(404);
    const unknown = await get('/ui/nowhere', cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
  });

  it('a read-only key cannot decide: no buttons, and its POSTs are a 403 that changes nothing', async () => {
    const cookie = await signIn(API_KEYS.read);
    const list = await get('/ui/seeds', cookie);
    expect(list.body).not.toContain('Promote selected');
    const refused = await post('/ui/seeds/bulk', cookie, { action: 'promote', seed: seedIdOf(SITES.news) });
    expect(refused.statusCode).toBe(403);
    const edit = await post(`${href(seedIdOf(SITES.news))}/edit`, cookie, { name: 'x' });
    expect(edit.statusCode).toBe(403);
    const seed = await inject(t.app, {
      url: `/api/v1/seeds/${encodeURIComponent(seedIdOf(SITES.news))}`,
      headers: bearer(API_KEYS.read),
    });
    expect(seed.json().status).toBe('draft');
  });

  it('refuses a POST from another origin or with no origin at all (CSRF)', async () => {
    const cookie = await signIn(API_KEYS.write);
    const foreign = await post(
      '/ui/seeds/bulk',
      cookie,
      { action: 'archive', seed: seedIdOf(SITES.news) },
      'https://evil.example',
    );
    expect(foreign.statusCode).toBe(403);
    const none = await inject(t.app, {
      method: 'POST',
      url: '/ui/seeds/bulk',
      headers: { ...HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=archive&seed=x',
    });
    expect(none.statusCode).toBe(403);
  });

  it('edits the contract: the API schema’s messages beside each field, then a fix saves a new version', async () => {
    const cookie = await signIn(API_KEYS.write);
    const seedId = 'com:sg:beta-news.com::news';
    const form = await get(`${href(seedId)}/edit`, cookie);
    expect(form.statusCode).toBe(200);
    const values = {
      name: 'Beta',
      entry_url: 'ftp://beta-news.com/',
      fetch_type: 'rss',
      fetch_urls: 'https://beta-news.com/feed\nnot a url',
      schedule: 'every day',
      robots_url: '',
      robots_allowed: '',
      crawl_delay: '',
      sitemap_urls: '',
      expected_version: '1',
    };
    const bad = await post(`${href(seedId)}/edit`, cookie, values);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-entry_url-error">[^<]*URL/i);
    expect(bad.body).toMatch(/id="f-fetch_urls-error">line 2: [^<]+/);
    expect(bad.body).toContain('id="f-schedule-error">must be a 5-field cron expression');
    expect(bad.body).toContain('value="every day"'); // what was typed is kept
    const good = await post(`${href(seedId)}/edit`, cookie, {
      ...values,
      entry_url: 'https://beta-news.com/',
      fetch_urls: 'https://beta-news.com/feed',
      schedule: '0 */6 * * *',
    });
    expect(good.statusCode).toBe(303);
    const seed = (
      await inject(t.app, {
        url: `/api/v1/seeds/${encodeURIComponent(seedId)}`,
        headers: bearer(API_KEYS.read),
      })
    ).json();
    expect(seed).toMatchObject({
      version: 2,
      schedule: '0 */6 * * *',
      fetch: { type: 'rss', urls: ['https://beta-news.com/feed'] },
    });
    // The same form sent again against the old version is a conflict told on the form.
    const stale = await post(`${href(seedId)}/edit`, cookie, {
      ...values,
      name: 'Beta 2',
      entry_url: 'https://beta-news.com/',
      fetch_urls: 'https://beta-news.com/feed',
      schedule: '0 */6 * * *',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('is at version 2, not 1');
  });

  it('shows revisions as diffs and accepts a proposal a contract run made against a person’s edit', async () => {
    const seedId = seedIdOf(SITES.disallow);
    const api = `/api/v1/seeds/${encodeURIComponent(seedId)}`;
    const discovered = (await inject(t.app, { url: api, headers: bearer(API_KEYS.read) })).json().schedule;
    await proposeAgainstEdit(t, SITES.disallow);
    const reader = await signIn(API_KEYS.read);
    const readOnly = (await get(href(seedId), reader)).body;
    expect(readOnly).toMatch(/data-revision-status="proposed"/);
    expect(readOnly).not.toContain('Accept revision');
    const cookie = await signIn(API_KEYS.write);
    const page = (await get(href(seedId), cookie)).body;
    const number = /data-revision="(\d+)" data-revision-status="proposed"/.exec(page)?.[1];
    expect(number).toBeDefined();
    expect(page).toContain(`<ins>&quot;${discovered}&quot;</ins>`);
    expect(page).toContain(`Accept revision ${number}`);
    const refused = await post(`${href(seedId)}/revisions/${number}/accept`, reader, {});
    expect(refused.statusCode).toBe(403);
    const accepted = await post(`${href(seedId)}/revisions/${number}/accept`, cookie, {});
    expect(accepted.statusCode).toBe(303);
    expect(decodeURIComponent(String(accepted.headers.location))).toContain(`revision ${number} accepted`);
    const seed = (await inject(t.app, { url: api, headers: bearer(API_KEYS.read) })).json();
    expect(seed.schedule).toBe(discovered);
    // Settled: a second decision is refused and told on the page.
    const again = await post(`${href(seedId)}/revisions/${number}/reject`, cookie, {});
    expect(decodeURIComponent(String(again.headers.location))).toMatch(
      /refused: revision \d+ of .* is accepted/,
    );
    const changes = await get('/ui/changes', cookie);
    expect(changes.statusCode).toBe(200);
    expect(changes.body).toMatch(/\d+ changes?\./);
  }, 120_000);

  it('promotes a selection and answers per seed; archives one', async () => {
    const cookie = await signIn(API_KEYS.write);
    const list = await get('/ui/seeds', cookie);
    expect(list.body).toContain('Promote selected');
    const done = await post('/ui/seeds/bulk', cookie, {
      action: 'promote',
      seed: [seedIdOf(SITES.news), 'com:sg:alpha-news.com::news', 'other:sg:missing.example.org::news'],
      back: '/ui/seeds',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Promoted 2 of 3.');
    expect(done.body).toMatch(
      /missing\.example\.org::news<\/a><\/td><td class="bad">skipped<\/td><td>not found/,
    );
    const again = await post('/ui/seeds/bulk', cookie, { action: 'promote', seed: seedIdOf(SITES.news) });
    expect(again.body).toContain('status is active; only drafts are promoted');
    const archive = await post(`${href('gov:sg:gamma.gov.sg::news')}/status`, cookie, { to: 'archived' });
    expect(archive.statusCode).toBe(303);
    expect((await get(href('gov:sg:gamma.gov.sg::news'), cookie)).body).toContain(
      '<strong data-status>archived</strong>',
    );
    const empty = await post('/ui/seeds/bulk', cookie, { action: 'promote' });
    expect(empty.statusCode).toBe(400);
  });

  it('lists batches, shows one with its progress and failed items, and counts on the dashboard', async () => {
    const cookie = await signIn(API_KEYS.read);
    const batches = await get('/ui/batches', cookie);
    expect(batches.body).toContain(`/ui/batches/${contractBatch}`);
    // Filtered by type, status and the day created (UTC, both bounds included); a bad day drops that bound.
    const today = new Date().toISOString().slice(0, 10);
    const listed = async (q: string) => (await get(`/ui/batches?${q}`, cookie)).body;
    expect(await listed(`type=contract&from=${today}&to=${today}`)).toContain(`/ui/batches/${contractBatch}`);
    expect(await listed('type=research')).not.toContain(`/ui/batches/${contractBatch}`);
    expect(await listed('from=2999-01-01')).toContain('data-batches-total="0"');
    expect(await listed('to=2000-01-01')).toContain('data-batches-total="0"');
    expect(await listed('from=someday&type=&status=')).toContain(`/ui/batches/${contractBatch}`);
    expect(await listed('type=contract&status=running')).not.toContain(`/ui/batches/${contractBatch}`);
    const one = await get(`/ui/batches/${contractBatch}`, cookie);
    expect(one.statusCode).toBe(200);
    expect(one.body).toMatch(/data-batch-status="completed/);
    expect(one.body).not.toContain('data-refresh');
    const progress = await get(`/ui/batches/${contractBatch}/progress`, cookie);
    expect(progress.body.startsWith('<section id="progress"')).toBe(true);
    const dashboard = await get('/ui', cookie);
    expect(dashboard.body).toMatch(/<strong>\d+<\/strong> draft/);
  });

  it('stays out of the OpenAPI document and the root endpoint list', async () => {
    const doc = (await inject(t.app, { url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/ui'))).toBe(false);
    const root = (await inject(t.app, { url: '/' })).json();
    expect(root.endpoints.some((e: { path: string }) => e.path.startsWith('/ui'))).toBe(false);
  });
});

describe('the review page in open mode', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed();
  });
  afterAll(() => t.close());

  it('is open when the service is: no sign-in, and decisions are offered', async () => {
    const page = await inject(t.app, { url: '/ui/seeds', headers: HOST });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('anonymous (open mode)');
  });
});
