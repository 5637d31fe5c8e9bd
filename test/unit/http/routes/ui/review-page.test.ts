// The review page's pure pieces: escaping, the form → PATCH translation and its per-field messages, the
// robots.txt excerpt around the deciding line, the redirect target after sign-in and the revision diff.
import { describe, expect, it } from 'vitest';
import { NO_DISCOVERY } from '../../../../../src/domain/seed-facts.js';
import type { Seed } from '../../../../../src/domain/seed-record.js';
import { escapeHtml, html } from '../../../../../src/http/routes/ui/html.js';
import { fieldOf, patchOf, validatePatch, valuesOf } from '../../../../../src/http/routes/ui/seed-edit.js';
import { robotsExcerpt } from '../../../../../src/http/routes/ui/seed-evidence.js';
import { revisionDiff } from '../../../../../src/http/routes/ui/seed-revisions.js';
import { safeNext } from '../../../../../src/http/routes/ui/session.js';

const SEED: Seed = {
  seed_id: 'com:sg:beta-news.com::news',
  domain_id: 'com:sg:beta-news.com',
  registrable_domain: 'beta-news.com',
  country: 'sg',
  category: 'news',
  content_type: 'news',
  source_type: 'company',
  status: 'draft',
  version: 3,
  name: 'Beta',
  entry_url: 'https://beta-news.com/',
  fetch: { type: 'rss', urls: ['https://beta-news.com/feed'] },
  schedule: '0 * * * *',
  policy: {
    robots_url: 'https://beta-news.com/robots.txt',
    robots_allowed: true,
    crawl_delay: null,
    sitemap_urls: [],
  },
  discovery: NO_DISCOVERY,
  provenance: {},
  created_at: '2026-11-23T00:00:00.000Z',
  updated_at: '2026-11-23T00:00:00.000Z',
  promoted_at: null,
  feeds: [],
  sitemap: null,
  human_fields: [],
  freshness: null,
  languages: [],
  health: null,
  news: null,
  country_guess: null,
};

describe('html', () => {
  it('escapes interpolated text and attributes, keeps nested Html, drops null and false', () => {
    const name = `"><img src=x onerror=alert(1)>&'`;
    const out = html`<a title="${name}">${name}</a>${html`<b>${'<i>'}</b>`}${null}${false}${[1, '<', html`<br>`]}`;
    expect(out.text).toBe(
      '<a title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;</a><b>&lt;i&gt;</b>1&lt;<br>',
    );
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });
});

describe('the edit form', () => {
  it('an unchanged form asks for no change at all (the version would not move anyway, but nothing is sent)', () => {
    expect(patchOf(SEED, valuesOf(SEED))).toEqual({});
  });

  it('sends only what differs; empty text is null; URL lists are one per line', () => {
    const values = {
      ...valuesOf(SEED),
      name: '  ',
      fetch_urls: 'https://beta-news.com/feed\n\n https://beta-news.com/world/feed \n',
      crawl_delay: '5',
    };
    expect(patchOf(SEED, values)).toEqual({
      name: null,
      fetch: { type: 'rss', urls: ['https://beta-news.com/feed', 'https://beta-news.com/world/feed'] },
      policy: { crawl_delay: 5 },
    });
  });

  it('puts the API schema’s messages beside the field they concern, with the line of a bad URL', () => {
    const checked = validatePatch({
      entry_url: 'ftp://x/',
      fetch: { type: 'rss', urls: ['https://ok.example/', 'nope'] },
      schedule: 'daily',
      policy: { crawl_delay: Number('soon') },
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.keys(checked.errors).sort()).toEqual([
      'crawl_delay',
      'entry_url',
      'fetch_urls',
      'schedule',
    ]);
    expect(checked.errors.fetch_urls?.[0]).toMatch(/^line 2: /);
    expect(checked.errors.schedule).toEqual(['must be a 5-field cron expression']);
    expect(fieldOf(['fetch', 'type'])).toBe('fetch_type');
    expect(fieldOf([])).toBe('form');
  });
});

describe('robotsExcerpt', () => {
  const text =
    'User-agent: *\nAllow: /news/\n\nUser-agent: SeedbedBot\nDisallow: /private/\nDisallow: /\nAllow: /news/\n';
  it('marks the line that decided for our agent, with the lines around it', () => {
    const denied = robotsExcerpt('https://x.test/robots.txt', text, 'https://x.test/about');
    expect(denied).toMatchObject({ allowed: false, line: 6 });
    expect(denied.lines.map((l) => l.number)).toEqual([3, 4, 5, 6, 7, 8]);
    const allowed = robotsExcerpt('https://x.test/robots.txt', text, 'https://x.test/news/today');
    expect(allowed).toMatchObject({ allowed: true, line: 7 });
  });
  it('no rule matched: allowed by default, the top of the file shown', () => {
    const excerpt = robotsExcerpt(
      'https://x.test/robots.txt',
      'User-agent: *\nDisallow: /private/\n',
      'https://x.test/',
    );
    expect(excerpt).toMatchObject({ allowed: true, line: null });
    expect(excerpt.lines[0]).toEqual({ number: 1, text: 'User-agent: *' });
  });
});

describe('safeNext', () => {
  it('follows only paths of the page itself', () => {
    expect(safeNext('/ui/seeds?country=sg')).toBe('/ui/seeds?country=sg');
    expect(safeNext('/ui')).toBe('/ui');
    for (const bad of ['https://evil.example/ui', '//evil.example/ui', '/api/v1/seeds', '/uix', undefined, 3])
      expect(safeNext(bad)).toBe('/ui');
  });
});

describe('revisionDiff', () => {
  it('shows each changed field before and after, escaped', () => {
    const diff = revisionDiff({
      changes: {
        schedule: { before: '0 * * * *', after: '0 */6 * * *' },
        name: { before: null, after: '<b>Beta</b>' },
      },
    }).text;
    expect(diff).toContain(
      '<th scope="row">schedule</th><td><del>&quot;0 * * * *&quot;</del></td><td><ins>&quot;0 */6 * * *&quot;</ins></td>',
    );
    expect(diff).toContain('<td><del>null</del></td><td><ins>&quot;&lt;b&gt;Beta&lt;/b&gt;&quot;</ins></td>');
    expect(diff).not.toContain('>fetch<');
  });
});
