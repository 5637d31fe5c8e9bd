// Contract discovery over homepages that broke it on real sites: a page can make a fact unknown, never fail a
// domain. One link cut off mid-escape used to throw "URI malformed" out of the whole discovery; a homepage past
// the probe's 2 MiB cap used to be dropped, so its title, languages and feeds were never read.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES } from '../../../src/adapters/http-fetcher.js';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import { probeLiveness } from '../../../src/engine/liveness.js';
import { PLAIN_HTTP_SITES as SITES } from '../../fixtures/fake-internet/index.js';
import { BIG_HOME_BYTES } from '../../fixtures/fake-internet/page-robustness-sites.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const NOW = new Date('2025-03-04T05:06:07.000Z');
const now = () => NOW;
const web = useFakeInternet();

function input(domain: string) {
  return { domainId: `other:intl:${domain}`, registrableDomain: domain, country: 'intl', category: 'news' };
}

describe('contract discovery over broken real-world homepages', () => {
  it('makes a draft when a feed link on the homepage is cut off in a percent escape', async () => {
    const found = await discoverContract(web.fetcher, input(SITES.cutEscape), { now });
    expect(found.reason).toBeNull();
    expect(found.draft).toMatchObject({
      name: 'Cut Escape News',
      entry_url: `http://${SITES.cutEscape}/`,
      fetch: { type: 'rss', urls: [`http://${SITES.cutEscape}/rss.xml`] },
    });
    // The cut links were still followed, as a person clicking them would (the server answered 404).
    const asked = web.net.requests.filter((r) => r.host === SITES.cutEscape).map((r) => r.path);
    expect(asked).toContain('/rss/news%E2%8');
  });

  it('reads the first 2 MiB of a 3 MiB homepage instead of dropping it', async () => {
    const probe = await probeLiveness(web.fetcher, SITES.bigHome, { now });
    expect(BIG_HOME_BYTES).toBeGreaterThan(DEFAULT_MAX_BYTES.probe);
    expect(probe.result).toMatchObject({ alive: true, http_status: 200 });
    expect(probe.response?.truncated).toBe(true);
    expect(probe.response?.body.length).toBe(DEFAULT_MAX_BYTES.probe);

    const found = await discoverContract(web.fetcher, input(SITES.bigHome), { now });
    expect(found.draft).toMatchObject({
      name: 'Big Home Zeitung',
      fetch: { type: 'rss', urls: [`http://${SITES.bigHome}/rss.xml`] },
      languages: [{ code: 'de', sources: ['html_lang'] }],
    });
  });
});
