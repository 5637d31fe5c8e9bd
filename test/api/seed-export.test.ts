// GET /api/v1/seeds/export: the list filters, streamed as JSON lines, CSV or OPML. The OPML is read back with
// feedsmith (a feed reader's parser) and must name exactly the main feeds of the seeds selected.
import { parseOpml } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedRecord } from '../../src/engine/feeds.js';
import { createApiSeedbed, expectValidation, inject } from '../support/api-helpers.js';
import { type ContractDraft, writeDraft } from '../support/contract-runs.js';
import type { TestSeedbed } from '../support/harness.js';

const feed = (url: string, role: FeedRecord['role'], title: string | null): FeedRecord => ({
  url,
  type: 'rss',
  title,
  role,
  item_count: 10,
  newest_item_at: '2026-06-01T00:00:00.000Z',
});

function draft(domainId: string, extra: Partial<ContractDraft> = {}): ContractDraft {
  const host = domainId.split(':')[2];
  return {
    domainId,
    category: 'news',
    name: null,
    entry_url: `https://${host}/`,
    fetch: { type: 'html', urls: [`https://${host}/`] },
    schedule: null,
    policy: { robots_allowed: true },
    discovery: {},
    provenance: { batch_id: 'b1', date: '2026-06-01' },
    ...extra,
  };
}

describe('GET /api/v1/seeds/export', () => {
  let t: TestSeedbed;
  const get = (url: string) => inject(t.app, { method: 'GET', url });

  beforeAll(async () => {
    t = await createApiSeedbed();
    const { database, services } = t.seedbed;
    await database.transaction(async (trx) => {
      // Main and section feeds, a comments feed: only the main one is for a reader.
      await writeDraft(
        services,
        trx,
        draft('gov:sg:mom.gov.sg', {
          name: 'Ministry of Manpower',
          facts: {
            feeds: [
              feed('https://www.mom.gov.sg/rss/news', 'main', 'MOM "News" & <Press>\u0001'),
              feed('https://www.mom.gov.sg/rss/jobs', 'section', 'Jobs'),
              feed('https://www.mom.gov.sg/rss/comments', 'comments', 'Comments'),
            ],
            sitemap: null,
          },
        }),
      );
      // No feed records (found before roles existed), an rss contract: its fetch URLs are its feeds.
      await writeDraft(
        services,
        trx,
        draft('gov:sg:mof.gov.sg', {
          name: '=HYPERLINK("x")',
          fetch: { type: 'rss', urls: ['https://www.mof.gov.sg/feed.xml'] },
        }),
      );
      // No feed at all: in JSON lines and CSV, not in OPML.
      await writeDraft(services, trx, draft('gov:sg:iras.gov.sg'));
      // Another country, and a draft left as a draft.
      await writeDraft(
        services,
        trx,
        draft('com:my:thestar.com.my', {
          facts: { feeds: [feed('https://www.thestar.com.my/rss', 'main', null)], sitemap: null },
        }),
      );
      await writeDraft(
        services,
        trx,
        draft('gov:sg:hdb.gov.sg', {
          facts: { feeds: [feed('https://www.hdb.gov.sg/rss', 'main', 'HDB')], sitemap: null },
        }),
      );
    });
    await services.seeds.promote({
      seedIds: [
        'gov:sg:mom.gov.sg::news',
        'gov:sg:mof.gov.sg::news',
        'gov:sg:iras.gov.sg::news',
        'com:my:thestar.com.my::news',
      ],
    });
  });
  afterAll(() => t.close());

  it('JSON lines by default: every seed matching the filters, one a line, as GET shows it', async () => {
    const response = await get('/api/v1/seeds/export?status=active&country=sg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="seeds-\d{4}-\d\d-\d\d\.jsonl"$/,
    );
    expect(response.body.endsWith('\n')).toBe(true);
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((s) => s.seed_id)).toEqual([
      'gov:sg:iras.gov.sg::news',
      'gov:sg:mof.gov.sg::news',
      'gov:sg:mom.gov.sg::news',
    ]);
    const one = await get(`/api/v1/seeds/${encodeURIComponent('gov:sg:mom.gov.sg::news')}`);
    expect(lines[2]).toEqual(one.json());
  });

  it('CSV: a header, a row per seed, quoted where needed, formulas defused', async () => {
    const response = await get('/api/v1/seeds/export?format=csv&country=sg&status=active');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = response.body.split('\r\n');
    expect(rows.at(-1)).toBe('');
    expect(rows[0]).toBe(
      'seed_id,domain_id,registrable_domain,country,category,content_type,source_type,status,version,name,' +
        'entry_url,fetch_type,fetch_urls,main_feeds,schedule,robots_allowed,created_at,updated_at,promoted_at',
    );
    expect(rows).toHaveLength(5);
    const mof = rows[2] ?? '';
    expect(
      mof.startsWith(
        'gov:sg:mof.gov.sg::news,gov:sg:mof.gov.sg,mof.gov.sg,sg,news,news,government,active,1,',
      ),
    ).toBe(true);
    // The name would run as a formula: an apostrophe first, and quoted for its quotes.
    expect(mof).toContain(',"\'=HYPERLINK(""x"")",https://mof.gov.sg/,rss,https://www.mof.gov.sg/feed.xml,');
    expect(rows[3]).toContain(',html,https://mom.gov.sg/,https://www.mom.gov.sg/rss/news,,true,');
  });

  it('OPML a feed reader imports: the main feeds of the seeds selected, nothing else', async () => {
    const response = await get('/api/v1/seeds/export?format=opml&status=active');
    expect(response.headers['content-type']).toBe('text/x-opml; charset=utf-8');
    expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">')).toBe(
      true,
    );
    const opml = parseOpml(response.body);
    expect(opml.head?.title).toBe('Seedbed seeds (active)');
    expect(opml.head?.dateCreated).toBeTruthy();
    // In seed id order: com:my:… before gov:sg:….
    expect(opml.body?.outlines).toEqual([
      {
        type: 'rss',
        text: 'thestar.com.my',
        title: 'thestar.com.my',
        xmlUrl: 'https://www.thestar.com.my/rss',
        htmlUrl: 'https://thestar.com.my/',
        category: '/my/news',
      },
      {
        type: 'rss',
        text: '=HYPERLINK("x")',
        title: '=HYPERLINK("x")',
        xmlUrl: 'https://www.mof.gov.sg/feed.xml',
        htmlUrl: 'https://mof.gov.sg/',
        category: '/sg/news',
      },
      {
        type: 'rss',
        text: 'MOM "News" & <Press>',
        title: 'MOM "News" & <Press>',
        xmlUrl: 'https://www.mom.gov.sg/rss/news',
        htmlUrl: 'https://mom.gov.sg/',
        category: '/sg/news',
      },
    ]);
  });

  it('takes every list filter, and refuses what is not one', async () => {
    const drafts = await get('/api/v1/seeds/export?status=draft');
    expect(
      drafts.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).seed_id),
    ).toEqual(['gov:sg:hdb.gov.sg::news']);
    const media = await get('/api/v1/seeds/export?source_type=company&category=news');
    expect(
      media.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).seed_id),
    ).toEqual(['com:my:thestar.com.my::news']);
    const none = await get('/api/v1/seeds/export?country=fr');
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('');
    const emptyOpml = parseOpml((await get('/api/v1/seeds/export?format=opml&country=fr')).body);
    expect(emptyOpml.body?.outlines ?? []).toEqual([]);
    expectValidation(await get('/api/v1/seeds/export?format=xml'), 'querystring.format');
    expectValidation(await get('/api/v1/seeds/export?limit=10'), 'querystring.limit');
  });

  it('reads the seeds a page at a time, each once, in id order', async () => {
    const ids: string[] = [];
    for await (const seed of t.seedbed.services.seeds.stream({}, 2)) ids.push(seed.seed_id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(5);
    const active: string[] = [];
    for await (const seed of t.seedbed.services.seeds.stream({ status: 'active' }, 1))
      active.push(seed.seed_id);
    expect(active).toHaveLength(4);
  });
});
