// Summaries of a discovery and the events between two of them (docs/design.md §3 events, docs/revisions.md).
import { describe, expect, it } from 'vitest';
import type { DomainMetadata } from '../../../src/engine/contract-discovery.js';
import {
  carryForward,
  type DiscoverySummary,
  diffDiscoveries,
  summarizeDiscovery,
} from '../../../src/engine/discovery-changes.js';

const base: DiscoverySummary = {
  state: 'alive',
  feeds: ['https://a.example/feed', 'https://a.example/comments/feed'],
  main_feed: 'https://a.example/feed',
  robots_allowed: true,
  crawl_delay: null,
  news_sitemaps: [],
  ai_disallowed: [],
  tdm: { value: null },
};
const kinds = (before: DiscoverySummary, after: DiscoverySummary) =>
  diffDiscoveries(before, after).map((e) => e.kind);

describe('diffDiscoveries', () => {
  it('finds nothing between two equal summaries', () => {
    expect(diffDiscoveries(base, { ...base })).toEqual([]);
  });

  it('names a change of news verdict, and none when a side was never judged', () => {
    expect(diffDiscoveries({ ...base, news_verdict: 'news' }, { ...base, news_verdict: 'not_news' })).toEqual(
      [
        {
          kind: 'news_verdict_changed',
          message: 'the news verdict is now not_news (was news)',
          before: 'news',
          after: 'not_news',
        },
      ],
    );
    // A summary stored before verdicts existed has none: no event.
    expect(kinds(base, { ...base, news_verdict: 'maybe' })).toEqual([]);
    expect(kinds({ ...base, news_verdict: 'maybe' }, { ...base, news_verdict: null })).toEqual([]);
    // A dead run learns no verdict: the last one carries forward.
    expect(
      carryForward({ ...base, news_verdict: 'news' }, { ...base, feeds: [], news_verdict: null })
        .news_verdict,
    ).toBe('news');
  });

  it('names a move of the entry page to another site, and none for a site that always answered from its other name', () => {
    expect(
      diffDiscoveries({ ...base, entry_site: 'oldname.example' }, { ...base, entry_site: 'newname.example' }),
    ).toEqual([
      {
        kind: 'entry_site_changed',
        message: 'the entry page now answers from newname.example (was oldname.example)',
        before: 'oldname.example',
        after: 'newname.example',
      },
    ]);
    // theguardian.co.uk's seed answering from theguardian.com on every run: nothing changed.
    expect(
      kinds({ ...base, entry_site: 'theguardian.com' }, { ...base, entry_site: 'theguardian.com' }),
    ).toEqual([]);
    // A summary stored before the entry site was kept, or a run that reached no entry page: unknown, no event.
    expect(kinds(base, { ...base, entry_site: 'newname.example' })).toEqual([]);
    expect(kinds({ ...base, entry_site: 'oldname.example' }, { ...base, entry_site: null })).toEqual([]);
    // A dead run learns no entry site: the last one carries forward.
    expect(
      carryForward({ ...base, entry_site: 'oldname.example' }, { ...base, feeds: [], entry_site: null })
        .entry_site,
    ).toBe('oldname.example');
  });

  it('names feeds added and removed, and a new main feed', () => {
    const events = diffDiscoveries(base, {
      ...base,
      feeds: ['https://a.example/rss', 'https://a.example/comments/feed'],
      main_feed: 'https://a.example/rss',
    });
    expect(events).toEqual([
      {
        kind: 'feed_added',
        message: 'feed added: https://a.example/rss',
        before: null,
        after: 'https://a.example/rss',
      },
      {
        kind: 'feed_removed',
        message: 'feed removed: https://a.example/feed',
        before: 'https://a.example/feed',
        after: null,
      },
      {
        kind: 'main_feed_changed',
        message: 'main feed is now https://a.example/rss',
        before: 'https://a.example/feed',
        after: 'https://a.example/rss',
      },
    ]);
  });

  it('tells robots.txt turning against SeedbedBot and back, and a crawl-delay change', () => {
    expect(kinds(base, { ...base, robots_allowed: false, crawl_delay: 10 })).toEqual([
      'robots_disallowed',
      'crawl_delay_changed',
    ]);
    expect(kinds({ ...base, robots_allowed: false }, base)).toEqual(['robots_allowed']);
  });

  it('tells a news sitemap appearing, moving and vanishing', () => {
    const one = { ...base, news_sitemaps: ['https://a.example/news.xml'] };
    expect(kinds(base, one)).toEqual(['news_sitemap_appeared']);
    expect(kinds(one, { ...base, news_sitemaps: ['https://a.example/news-2.xml'] })).toEqual([
      'news_sitemap_moved',
    ]);
    expect(kinds(one, base)).toEqual(['news_sitemap_vanished']);
  });

  it('tells each AI crawler newly disallowed or allowed again, and a TDM reservation change', () => {
    const closed = { ...base, ai_disallowed: ['CCBot', 'GPTBot'], tdm: { value: 1 } };
    expect(diffDiscoveries(base, closed).map((e) => e.message)).toEqual([
      'CCBot newly disallowed',
      'GPTBot newly disallowed',
      'TDM reservation changed',
    ]);
    expect(kinds(closed, { ...closed, ai_disallowed: ['GPTBot'] })).toEqual(['ai_crawler_allowed']);
  });

  it("tells the site's state going blocked, dead and back; a field unknown on one side gives no event", () => {
    const dead: DiscoverySummary = {
      state: 'dead',
      feeds: null,
      main_feed: null,
      robots_allowed: null,
      crawl_delay: null,
      news_sitemaps: null,
      ai_disallowed: null,
      tdm: null,
    };
    expect(kinds(base, dead)).toEqual(['site_dead']);
    expect(kinds(base, { ...dead, state: 'blocked' })).toEqual(['site_blocked']);
    expect(kinds(dead, base)).toEqual(['site_alive']);
    // Dead, then erroring: no new event; the site never came back.
    expect(kinds(dead, { ...dead, state: 'error' })).toEqual([]);
  });
});

describe('carryForward', () => {
  it('keeps what a run could not learn: a dead site keeps its feeds, so coming back is no "feed added"', () => {
    const dead = carryForward(base, { ...base, state: 'dead', feeds: null, robots_allowed: null });
    expect(dead).toEqual({ ...base, state: 'dead' });
    expect(kinds(dead, base)).toEqual(['site_alive']);
  });

  it('keeps the feeds a disallowed run did not read', () => {
    const next = carryForward(base, { ...base, robots_allowed: false, feeds: null, news_sitemaps: null });
    expect(next.feeds).toEqual(base.feeds);
    expect(kinds(base, next)).toEqual(['robots_disallowed']);
  });
});

describe('summarizeDiscovery', () => {
  const metadata = {
    homepage: { final_url: 'https://www.anews.com.au/', status_code: 200 },
    robots: { crawl_delay: 2 },
    feeds: [
      { url: 'https://a.example/feed', role: 'main' },
      { url: 'https://a.example/comments/feed', role: 'comments' },
    ],
    sitemap: {
      sitemaps: [
        { url: 'https://a.example/sitemap.xml', news: false },
        { url: 'https://a.example/news.xml', news: true },
      ],
    },
  } as unknown as DomainMetadata;

  it('reads feeds, robots, news sitemaps and the AI crawlers robots.txt keeps off the root', () => {
    const summary = summarizeDiscovery({
      state: 'alive',
      metadata,
      policy: { robots_allowed: true },
      robotsTxt: Buffer.from(
        'User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n',
      ),
      origin: 'https://a.example',
    });
    expect(summary).toEqual({
      state: 'alive',
      feeds: ['https://a.example/feed', 'https://a.example/comments/feed'],
      main_feed: 'https://a.example/feed',
      robots_allowed: true,
      crawl_delay: 2,
      news_sitemaps: ['https://a.example/news.xml'],
      ai_disallowed: ['GPTBot', 'CCBot'],
      tdm: null,
      // The metadata carries no verdict (a run before discovery judged sources): unknown.
      news_verdict: null,
      // Where the entry page answered from: its registrable domain, whatever the host.
      entry_site: 'anews.com.au',
    });
  });

  it("prefers the policy's own AI signals when the discovery read them", () => {
    const summary = summarizeDiscovery({
      state: 'alive',
      metadata,
      policy: { robots_allowed: false, ai: { disallowed_agents: ['ClaudeBot'], tdm_reservation: 1 } },
      robotsTxt: null,
      origin: 'https://a.example',
    });
    expect(summary).toMatchObject({ ai_disallowed: ['ClaudeBot'], tdm: { value: 1 }, feeds: null });
  });

  it('knows only the state of a site that did not answer', () => {
    const summary = summarizeDiscovery({
      state: 'blocked',
      metadata,
      policy: null,
      robotsTxt: null,
      origin: null,
    });
    expect(summary).toMatchObject({
      state: 'blocked',
      feeds: null,
      robots_allowed: null,
      ai_disallowed: null,
    });
  });
});
