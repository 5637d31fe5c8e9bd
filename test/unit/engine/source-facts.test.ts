import { describe, expect, it } from 'vitest';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import { cronFor } from '../../../src/engine/freshness.js';
import { FACTS_NOW, FACTS_SITES as SITES } from '../../fixtures/fake-internet/index.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const now = () => FACTS_NOW;
const web = useFakeInternet();

function input(domain: string) {
  return { domainId: `other:intl:${domain}`, registrableDomain: domain, country: 'intl', category: 'news' };
}
const discover = (domain: string, extra: { staleAfterDays?: number } = {}) =>
  discoverContract(web.fetcher, { ...input(domain), ...extra }, { now });

describe('freshness and schedule from the publication rate', () => {
  it('dozens a day: every 15 minutes, from the main feed', async () => {
    const found = await discover(SITES.busy);
    expect(found.metadata.freshness).toEqual({
      newest_item_at: '2025-06-15T11:50:00.000Z',
      items_last_7d: 48,
      // 48 items between 23h40 ago and now.
      items_per_day: 48.68,
      measured_at: FACTS_NOW.toISOString(),
      stale: false,
      based_on: 'feed',
    });
    expect(found.draft?.freshness).toEqual(found.metadata.freshness);
    expect(found.draft?.schedule).toBe(cronFor(SITES.busy, '15 minutes'));
    expect(found.draft?.schedule).toMatch(/^\d+,\d+,\d+,\d+ \* \* \* \*$/);
  });

  it('a few a day: hourly', async () => {
    const found = await discover(SITES.fewADay);
    expect(found.metadata.freshness).toMatchObject({ items_last_7d: 20, items_per_day: 3.14, stale: false });
    expect(found.draft?.schedule).toBe(cronFor(SITES.fewADay, 'hour'));
  });

  it('weekly: daily, the rate counted over the last 7 days', async () => {
    const found = await discover(SITES.weekly);
    expect(found.metadata.freshness).toMatchObject({
      newest_item_at: '2025-06-14T12:00:00.000Z',
      items_last_7d: 1,
      items_per_day: 0.14,
      stale: false,
    });
    expect(found.draft?.schedule).toBe(cronFor(SITES.weekly, 'day'));
  });

  it('a source whose newest item is older than the stale age is stale and read weekly', async () => {
    const found = await discover(SITES.stale);
    expect(found.metadata.freshness).toMatchObject({ items_last_7d: 0, items_per_day: 0, stale: true });
    expect(found.draft?.schedule).toBe(cronFor(SITES.stale, 'week'));
    // The age is configurable: 100 days makes the same source fresh (and its rate, 0 a day, reads it daily).
    const patient = await discover(SITES.stale, { staleAfterDays: 100 });
    expect(patient.metadata.freshness.stale).toBe(false);
    expect(patient.draft?.schedule).toBe(cronFor(SITES.stale, 'day'));
  });

  it('a news sitemap gives the rate when there is no feed', async () => {
    const found = await discover(SITES.newsOnly);
    expect(found.metadata.feeds).toEqual([]);
    expect(found.metadata.freshness).toMatchObject({
      newest_item_at: '2025-06-15T11:00:00.000Z',
      items_last_7d: 12,
      // 12 stories over the 45 hours since the oldest.
      items_per_day: 6.4,
      based_on: 'news_sitemap',
    });
    expect(found.draft?.schedule).toBe(cronFor(SITES.newsOnly, 'hour'));
    expect(found.metadata.languages).toEqual([{ code: 'de', sources: ['news_sitemap'] }]);
  });
});

describe('languages with their sources', () => {
  it('declared: <html lang> and the feed agree', async () => {
    const found = await discover(SITES.busy);
    expect(found.metadata.languages).toEqual([{ code: 'fr', sources: ['html_lang', 'feed'] }]);
    expect(found.draft?.languages).toEqual(found.metadata.languages);
  });

  it('conflicting: each declared language is kept with where it came from, the page and feed first', async () => {
    const found = await discover(SITES.conflicting);
    expect(found.metadata.languages).toEqual([
      { code: 'en', sources: ['html_lang', 'hreflang'] },
      { code: 'fr', sources: ['feed'] },
      { code: 'de', sources: ['content_language'] },
      { code: 'es', sources: ['hreflang'] },
    ]);
  });

  it.each([
    [SITES.undeclaredRu, 'ru'],
    [SITES.undeclaredJa, 'ja'],
  ])('undeclared (%s): detected from the item titles', async (domain, code) => {
    const found = await discover(domain);
    expect(found.metadata.languages).toEqual([{ code, sources: ['detected'], confidence: 1 }]);
  });
});

describe('AI and text-and-data-mining policy', () => {
  it('robots.txt groups: the named AI crawlers kept out, with the lines that decided', async () => {
    const found = await discover(SITES.aiRobots);
    const ai = found.metadata.ai;
    expect(ai?.status).toBe('disallowed');
    expect(ai?.disallowed_agents).toEqual(['GPTBot', 'CCBot', 'ClaudeBot']);
    expect(ai?.allowed_agents).toContain('Google-Extended');
    expect(ai?.allowed_agents).toContain('PerplexityBot');
    expect(ai?.named).toEqual([
      { agent: 'GPTBot', allowed: false, line: 2 },
      { agent: 'CCBot', allowed: false, line: 6 },
      { agent: 'Google-Extended', allowed: true, line: 9 },
      { agent: 'ClaudeBot', allowed: false, line: 6 },
    ]);
    expect(ai).toMatchObject({ robots: 'read', tdm_reservation: null, noai: false });
    // The contract's own robots answer is for SeedbedBot: the `*` group lets it in.
    expect(found.draft?.policy.robots_allowed).toBe(true);
    expect(found.draft?.ai).toEqual(ai);
  });

  it('tdmrep.json: the first rule matching the entry URL reserves the rights', async () => {
    const found = await discover(SITES.aiTdmFile);
    expect(found.metadata.ai).toMatchObject({
      status: 'reserved',
      disallowed_agents: [],
      tdm_reservation: true,
      tdm_policy_url: 'http://aitdmfile.test/tdm-policy.json',
      tdm_source: 'tdmrep.json',
    });
  });

  it('the tdm-reservation header wins over the meta tag; X-Robots-Tag noai', async () => {
    const found = await discover(SITES.aiHeader);
    expect(found.metadata.ai).toMatchObject({
      status: 'reserved',
      tdm_reservation: true,
      tdm_policy_url: 'http://aiheader.test/policy',
      tdm_source: 'header',
      noai: true,
      noimageai: false,
    });
  });

  it('meta tags: tdm-reservation and robots noai, noimageai', async () => {
    const found = await discover(SITES.aiMeta);
    expect(found.metadata.ai).toMatchObject({
      status: 'reserved',
      tdm_reservation: true,
      tdm_policy_url: 'http://aimeta.test/policy',
      tdm_source: 'meta',
      noai: true,
      noimageai: true,
    });
  });

  it('a site that says nothing allows every known AI crawler', async () => {
    const found = await discover(SITES.fewADay);
    expect(found.metadata.ai).toMatchObject({
      status: 'allowed',
      robots: 'none',
      disallowed_agents: [],
      named: [],
      tdm_reservation: null,
      noai: false,
    });
    expect(found.metadata.ai?.allowed_agents).toContain('GPTBot');
  });
});
