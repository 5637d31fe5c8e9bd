// The review page's Candidates (/ui/candidates), in process: ranked by score with reasons, citers, the country guess
// and languages; filters; one candidate with all its evidence; accept and reject many at once, answered per domain,
// with the API's own validation message beside a missing reason; read-only keys see no controls; the strict CSP.
// Also the news verdict and country guess on a seed's page and the drafts' verdict filter (page and API).
// Accepting runs on both backends: the embedded default, and PostgreSQL when it answers (skipped with the reason,
// or failed when required, as every PostgreSQL test).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectRequestSchema } from '../../src/domain/candidates.js';
import { escapeHtml } from '../../src/http/routes/ui/html.js';
import { API_KEYS, API_KEYS_ENV, bearer, createApiSeedbed, inject } from '../support/api-helpers.js';
import { ON_POSTGRES } from '../support/backend.js';
import { addCandidates, addJudgedSeed, type CandidateSpec, verdict } from '../support/candidates.js';
import type { TestSeedbed } from '../support/harness.js';
import { createPostgresTestSeedbed } from '../support/postgres.js';
import { pgAvailable } from '../support/services.js';

const ORIGIN = 'http://seedbed.local';
const HOST = { host: 'seedbed.local' };
const ALPHA = 'com:sg:alpha-news.com::news';
const BETA = 'com:sg:beta-news.com::news';

const domainsOf = (body: string) => [...body.matchAll(/<tr data-domain="([^"]+)"/g)].map((m) => m[1]);

const CANDIDATES: CandidateSpec[] = [
  {
    domain: 'delta-news.com',
    country: 'sg',
    citedBySeeds: [ALPHA, BETA],
    news: verdict('news', 0.93, [
      { signal: 'news_sitemap', weight: 1.5, evidence: 'https://delta-news.com/news-sitemap.xml' },
      { signal: 'news_schema', weight: 2, evidence: 'NewsArticle on https://delta-news.com/a/1' },
      { signal: 'bylines', weight: 0.4, evidence: 'rel=author' },
      { signal: 'dated_items', weight: 0.3, evidence: '12 <time> elements' },
    ]),
    guess: {
      code: 'sg',
      confidence: 0.8,
      reasons: [{ signal: 'citing_seeds', weight: 3, evidence: '2 citing seeds of sg', country: 'sg' }],
    },
    languages: [{ code: 'en', sources: ['html_lang'] }],
  },
  {
    domain: 'eta-times.com',
    country: 'sg',
    citedBySeeds: [ALPHA],
    news: verdict('news', 0.71, [{ signal: 'article_links_some', weight: 1, evidence: '17 article links' }]),
    guess: null,
    languages: [{ code: 'zh', sources: ['detected'] }],
  },
  {
    domain: 'zeta-recipes.com',
    country: 'sg',
    news: verdict('not_news', 0.08, [{ signal: 'recipe_schema', weight: -2.5, evidence: 'Recipe markup' }]),
    guess: {
      code: 'my',
      confidence: 0.6,
      reasons: [{ signal: 'cctld', weight: 3, evidence: '.my links', country: 'my' }],
    },
  },
  { domain: 'theta-unchecked.com', country: 'sg' },
];

/** Two seeds that cite, and the candidates above, as discovery would leave them. */
async function prepare(t: TestSeedbed): Promise<void> {
  for (const domain of ['alpha-news.com', 'beta-news.com'])
    await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds',
      headers: bearer(API_KEYS.write),
      payload: { domain, country: 'sg', category: 'news' },
    });
  await addCandidates(t, CANDIDATES);
}

/** A person on the page: signs in with a key (the cookie), reads pages and sends forms from our origin. */
function person(t: TestSeedbed) {
  async function signIn(key: string): Promise<string> {
    const response = await inject(t.app, {
      method: 'POST',
      url: '/ui/login',
      headers: { ...HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ key, next: '/ui/candidates' }).toString(),
    });
    expect(response.statusCode).toBe(303);
    return String(response.headers['set-cookie']).split(';')[0] as string;
  }
  const get = (url: string, cookie: string) =>
    inject(t.app, { method: 'GET', url, headers: { ...HOST, cookie } });
  const post = (url: string, cookie: string, form: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return inject(t.app, {
      method: 'POST',
      url,
      headers: { ...HOST, cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  };
  return { signIn, get, post };
}

describe('the review page’s candidates', () => {
  let t: TestSeedbed;
  let signIn: ReturnType<typeof person>['signIn'];
  let get: ReturnType<typeof person>['get'];
  let post: ReturnType<typeof person>['post'];
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV });
    await prepare(t);
    ({ signIn, get, post } = person(t));
  }, 60_000);
  afterAll(() => t.close());

  const candidate = (domain: string) => t.seedbed.services.candidates.get(domain);

  it('ranks candidates by score with their reasons, citers, country guess, languages and state', async () => {
    const cookie = await signIn(API_KEYS.read);
    const page = await get('/ui/candidates', cookie);
    expect(page.statusCode).toBe(200);
    // Unscored (never qualified) last.
    expect(domainsOf(page.body)).toEqual([
      'delta-news.com',
      'eta-times.com',
      'zeta-recipes.com',
      'theta-unchecked.com',
    ]);
    const delta = /<tr data-domain="delta-news\.com">[\s\S]*?<\/tr>/.exec(page.body)?.[0] ?? '';
    expect(delta).toContain('news<br><small>0.93</small>');
    // The strongest reasons first, with their evidence; the weakest of four is left to the candidate's page.
    expect(delta).toContain('<code>news_schema</code> NewsArticle on https://delta-news.com/a/1');
    expect(delta.indexOf('news_schema')).toBeLessThan(delta.indexOf('news_sitemap'));
    expect(delta).not.toContain('dated_items');
    expect(delta).toContain(
      `<a href="/ui/seeds/${encodeURIComponent(ALPHA)}">${ALPHA}</a> <small>homepage</small>`,
    );
    expect(delta).toContain('list <q>test-list</q> <small>import</small>');
    expect(delta).toContain('<td data-citations>3</td>');
    expect(delta).toContain('guess sg 0.80');
    expect(delta).toContain('<td>en</td>');
    expect(delta).toContain('<td data-state>qualified</td>');
    expect(page.body).toContain('<a href="/ui/candidates" aria-current="page">Candidates</a>');
  });

  it('filters by country, state, verdict and minimum score, and sorts by citations; a bad value drops its filter', async () => {
    const cookie = await signIn(API_KEYS.read);
    const listed = async (q: string) => domainsOf((await get(`/ui/candidates?${q}`, cookie)).body);
    expect(await listed('verdict=news')).toEqual(['delta-news.com', 'eta-times.com']);
    expect(await listed('verdict=not_news')).toEqual(['zeta-recipes.com']);
    expect(await listed('state=new')).toEqual(['theta-unchecked.com']);
    expect(await listed('min_score=0.8')).toEqual(['delta-news.com']);
    // A qualification moves a candidate to its guessed country.
    expect(await listed('country=my')).toEqual(['zeta-recipes.com']);
    expect(await listed('country=sg&state=qualified')).toEqual(['delta-news.com', 'eta-times.com']);
    expect((await listed('sort=citations'))[0]).toBe('delta-news.com');
    expect(await listed('verdict=bogus&min_score=7&offset=x')).toHaveLength(4);
    const form = (await get('/ui/candidates?verdict=maybe', cookie)).body;
    expect(form).toContain('<option value="maybe" selected>maybe</option>');
    expect(form).toContain('data-candidates-total="0"');
  });

  it('shows one candidate with every reason, its country guess, citations and what qualification found', async () => {
    const cookie = await signIn(API_KEYS.read);
    const page = await get('/ui/candidates/delta-news.com', cookie);
    expect(page.statusCode).toBe(200);
    for (const signal of ['news_sitemap', 'news_schema', 'bylines', 'dated_items', 'citing_seeds'])
      expect(page.body).toContain(`<tr data-signal="${signal}">`);
    expect(page.body).toContain('<td>+1.5</td><td>https://delta-news.com/news-sitemap.xml</td>');
    expect(page.body).toContain('<strong data-country-guess>sg</strong>');
    expect(page.body).toMatch(
      new RegExp(
        `<tr data-citer="${ALPHA}"><td><a href="/ui/seeds/${encodeURIComponent(ALPHA)}">[^<]+</a></td><td>homepage</td><td><a href="https://delta-news\\.com/story`,
      ),
    );
    expect(page.body).toContain('<td>delta-news.com story</td>');
    expect(page.body).toMatch(/<dt>Feeds found<\/dt><dd>2<\/dd>/);
    expect(page.body).toMatch(/<dt>Sitemap<\/dt><dd>yes, a news sitemap<\/dd>/);
    expect(page.body).toMatch(/<dt>Robots allowed<\/dt><dd>yes<\/dd>/);
    expect(page.body).toMatch(/<dt>Languages<\/dt><dd>en \(html_lang\)<\/dd>/);
    expect(page.body).toMatch(/<dt>Imported from<\/dt><dd>test-list<\/dd>/);
    expect(page.body).toContain('Not decided');
    const unchecked = await get('/ui/candidates/theta-unchecked.com', cookie);
    expect(unchecked.body).toContain('Not qualified yet');
    const missing = await get('/ui/candidates/nowhere-news.com', cookie);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
  });

  it('sends the strict CSP on the candidates pages, without inline code', async () => {
    const cookie = await signIn(API_KEYS.write);
    for (const url of ['/ui/candidates', '/ui/candidates/delta-news.com', '/ui']) {
      const response = await get(url, cookie);
      expect(response.statusCode, url).toBe(200);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(response.body).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    }
  });

  it('a read-only key sees no decide controls, and its POST is a 403 that changes nothing', async () => {
    const cookie = await signIn(API_KEYS.read);
    const page = (await get('/ui/candidates', cookie)).body;
    expect(page).not.toContain('name="domain"');
    expect(page).not.toContain('Reject selected');
    expect(page).not.toContain('/ui/candidates/decide');
    expect(page).toContain('Read-only key');
    const refused = await post('/ui/candidates/decide', cookie, {
      action: 'reject',
      domain: 'eta-times.com',
      reason: 'no',
    });
    expect(refused.statusCode).toBe(403);
    expect((await candidate('eta-times.com')).state).toBe('qualified');
  });

  it('refuses a reject without a reason with the API’s message beside the field, keeping the selection', async () => {
    const cookie = await signIn(API_KEYS.write);
    const form = { action: 'reject', domain: ['eta-times.com', 'zeta-recipes.com'], reason: '  ' };
    const page = await post('/ui/candidates/decide', cookie, { ...form, back: '/ui/candidates?sort=score' });
    expect(page.statusCode).toBe(400);
    // The message the API gives for the same body.
    const api = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/candidates/reject',
      headers: bearer(API_KEYS.write),
      payload: { domains: form.domain, reason: '  ' },
    });
    expect(api.statusCode).toBe(400);
    const message = rejectRequestSchema.safeParse({ domains: ['x'], reason: '  ' }).error?.issues[0]?.message;
    expect(message).toBeTruthy();
    expect(api.json().errors).toContainEqual({ path: 'body.reason', message });
    expect(page.body).toContain(
      `<span class="field-error" id="d-reason-error">${escapeHtml(message ?? '')}</span>`,
    );
    expect(page.body).toContain('aria-describedby="d-reason-error"');
    expect(page.body).toContain('value="eta-times.com" aria-label="Select eta-times.com" checked');
    expect(page.body).toContain('value="zeta-recipes.com" aria-label="Select zeta-recipes.com" checked');
    expect(page.body).not.toContain('value="delta-news.com" aria-label="Select delta-news.com" checked');
    expect((await candidate('eta-times.com')).state).toBe('qualified');
    // Nothing selected is the API's message too, not a 500.
    const none = await post('/ui/candidates/decide', cookie, { action: 'reject', reason: 'spam' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('id="d-domain-error"');
  });

  it('rejects many with a reason, one answer per domain, and the candidate’s page shows the decision', async () => {
    const cookie = await signIn(API_KEYS.write);
    const done = await post('/ui/candidates/decide', cookie, {
      action: 'reject',
      domain: ['zeta-recipes.com', 'theta-unchecked.com'],
      reason: 'recipes, not news',
      back: '/ui/candidates',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Rejected 2 of 2.');
    expect(done.body).toMatch(/<tr data-answer="zeta-recipes\.com">.*<td class="">rejected<\/td>/);
    expect(done.body).toMatch(/<tr data-answer="theta-unchecked\.com">.*<td class="">rejected<\/td>/);
    const zeta = await candidate('zeta-recipes.com');
    expect(zeta).toMatchObject({
      state: 'rejected',
      reject_reason: 'recipes, not news',
      decided_by: 'writer',
    });
    const page = (await get('/ui/candidates/zeta-recipes.com', cookie)).body;
    expect(page).toMatch(/<dt>Reject reason<\/dt><dd>recipes, not news<\/dd>/);
    expect(page).toMatch(/<dt>Decided by<\/dt><dd>writer<\/dd>/);
  });

  it('refuses an accept with a bad country override with the API’s message beside the field', async () => {
    const cookie = await signIn(API_KEYS.write);
    const bad = await post('/ui/candidates/decide', cookie, {
      action: 'accept',
      domain: 'delta-news.com',
      country: 'zzz',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('id="d-country-error">must be an ISO 3166-1 alpha-2 country code');
    expect(bad.body).toContain('id="d-country" name="country" value="zzz"');
    expect((await candidate('delta-news.com')).state).toBe('qualified');
  });

  it('shows a seed’s news verdict and country guess with their reasons, and filters drafts by verdict (page and API)', async () => {
    const iota = await addJudgedSeed(
      t,
      'com:sg:iota-post.com',
      verdict('news', 0.88, [{ signal: 'news_schema', weight: 2, evidence: 'NewsArticle' }]),
      {
        code: 'sg',
        confidence: 0.7,
        reasons: [{ signal: 'cctld', weight: 3, evidence: 'links to .sg', country: 'sg' }],
      },
    );
    const kappa = await addJudgedSeed(
      t,
      'com:sg:kappa-shop.com',
      verdict('not_news', 0.05, [{ signal: 'shop_signals_many', weight: -1.5, evidence: 'cart links' }]),
      null,
    );
    const cookie = await signIn(API_KEYS.read);
    const seed = (await get(`/ui/seeds/${encodeURIComponent(iota)}`, cookie)).body;
    expect(seed).toContain('>News and country</h2>');
    expect(seed).toContain('<strong data-verdict>news</strong>');
    expect(seed).toMatch(/<dt>Score<\/dt><dd>0\.88<\/dd>/);
    expect(seed).toContain(
      '<tr data-signal="news_schema"><td><code>news_schema</code></td><td>+2</td><td>NewsArticle</td>',
    );
    expect(seed).toContain('<strong data-country-guess>sg</strong>');
    expect(seed).toContain('<tr data-signal="cctld"><td><code>cctld</code></td><td>sg</td><td>+3</td>');
    const shop = (await get(`/ui/seeds/${encodeURIComponent(kappa)}`, cookie)).body;
    expect(shop).toContain('<td>−1.5</td><td>cart links</td>');
    expect(shop).toMatch(/<dt>Country guess<\/dt><dd>none<\/dd>/);
    // A seed never judged has no such section.
    expect((await get(`/ui/seeds/${encodeURIComponent(ALPHA)}`, cookie)).body).not.toContain(
      'News and country',
    );
    const ids = async (q: string) =>
      [...(await get(`/ui/seeds?${q}`, cookie)).body.matchAll(/<small>([^<]+)<\/small>/g)].map((m) => m[1]);
    expect(await ids('verdict=news')).toEqual([iota]);
    expect(await ids('verdict=not_news')).toEqual([kappa]);
    expect(await ids('verdict=maybe')).toEqual([]);
    expect(await ids('verdict=bogus')).toEqual([ALPHA, BETA, iota, kappa]);
    const list = (await get('/ui/seeds?verdict=news', cookie)).body;
    expect(list).toContain('<option value="news" selected>news</option>');
    expect(list).toContain('<td data-verdict="news">news 0.88</td>');
    const api = (q: string) => inject(t.app, { url: `/api/v1/seeds?${q}`, headers: bearer(API_KEYS.read) });
    const news = await api('verdict=not_news');
    expect(news.json().data.map((x: { seed_id: string }) => x.seed_id)).toEqual([kappa]);
    expect((await api('verdict=maybe')).json().pagination.total).toBe(0);
    expect((await api('verdict=bogus')).statusCode).toBe(400);
    const doc = (await inject(t.app, { url: '/openapi.json' })).json();
    const param = doc.paths['/api/v1/seeds'].get.parameters.find(
      (p: { name: string }) => p.name === 'verdict',
    );
    expect(param.description).toMatch(/news verdict/);
    // Promote by filter takes the verdict too (the page's "promote all matching" sends it there).
    const promoted = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds/promote',
      headers: bearer(API_KEYS.write),
      payload: { filter: { verdict: 'not_news' } },
    });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().results.map((r: { seed_id: string }) => r.seed_id)).toEqual([kappa]);
  });

  it('counts candidates by state on the dashboard, each linked to its list', async () => {
    const cookie = await signIn(API_KEYS.read);
    const page = (await get('/ui', cookie)).body;
    const card =
      /<section class="card" data-dashboard="candidates">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
    expect(card).toContain('<a href="/ui/candidates?state=qualified"><strong>2</strong> qualified</a>');
    expect(card).toContain('<a href="/ui/candidates?state=rejected"><strong>2</strong> rejected</a>');
    expect(card).not.toContain('accepted');
    expect(card.indexOf('qualified')).toBeLessThan(card.indexOf('rejected'));
  });
});

const pgUp = await pgAvailable();
const BACKENDS = [
  { name: 'SQLite', up: true, open: () => createApiSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV }) },
  {
    name: 'PostgreSQL',
    // In the PostgreSQL run (npm run test:pg) the SQLite row's Seedbed is on PostgreSQL already: not twice.
    up: pgUp && !ON_POSTGRES,
    open: () => createPostgresTestSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV }, 'seedbed_ui_accept'),
  },
];

describe.each(BACKENDS)('the review page accepts candidates ($name)', ({ up, open }) => {
  let t: TestSeedbed;
  beforeAll(async () => {
    if (!up) return;
    t = await open();
    await prepare(t);
  }, 60_000);
  afterAll(() => t?.close());

  it.skipIf(!up)(
    'accepts many: a draft seed for the qualified one, the others skipped with the reason',
    async () => {
      const { signIn, get, post } = person(t);
      const cookie = await signIn(API_KEYS.write);
      const done = await post('/ui/candidates/decide', cookie, {
        action: 'accept',
        domain: ['delta-news.com', 'theta-unchecked.com', 'nowhere-news.com'],
        country: '',
        category: 'news',
        back: '/ui/candidates?verdict=news',
      });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Accepted 1 of 3.');
      const seedId = 'com:sg:delta-news.com::news';
      expect(done.body).toContain(`<a href="/ui/seeds/${encodeURIComponent(seedId)}">${seedId}</a>`);
      expect(done.body).toMatch(/<tr data-answer="theta-unchecked\.com">.*skipped.*not qualified yet/);
      expect(done.body).toMatch(/<tr data-answer="nowhere-news\.com">.*skipped.*not a candidate/);
      expect(done.body).toContain('<a href="/ui/candidates?verdict=news">Back to the candidates</a>');
      expect((await t.seedbed.services.candidates.get('delta-news.com')).state).toBe('accepted');
      // The draft carries the candidate's verdict: the drafts' verdict filter finds it.
      const drafts = (await get('/ui/seeds?verdict=news', cookie)).body;
      expect([...drafts.matchAll(/<small>([^<]+)<\/small>/g)].map((m) => m[1])).toEqual([seedId]);
      const listed = (await get('/ui/candidates?state=accepted', cookie)).body;
      expect(domainsOf(listed)).toEqual(['delta-news.com']);
    },
    60_000,
  );
});
