// A contract run tokenises its homepage once: the feed finder, the declared signals and the verdicts' facts share
// one htmlparser2 pass (homepage-read.ts). Every Parser is counted by the text written to it.
import { describe, expect, it, vi } from 'vitest';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import { readHomepage } from '../../../src/engine/homepage-read.js';
import { decodeText } from '../../../src/engine/text-decoding.js';
import type { Fetcher, FetchResponse } from '../../../src/ports/fetcher.js';
import { FACTS_SITES, SITES } from '../../fixtures/fake-internet/index.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const written = vi.hoisted(() => [] as string[]);

vi.mock('htmlparser2', async (importOriginal) => {
  const original = await importOriginal<typeof import('htmlparser2')>();
  class CountingParser extends original.Parser {
    override write(chunk: string): void {
      written.push(chunk);
      super.write(chunk);
    }
  }
  return { ...original, Parser: CountingParser };
});

const now = () => new Date('2025-03-04T05:06:07.000Z');

/** The fetcher, recording the liveness probe's answers (the homepage the run reads). */
function recording(fetcher: Fetcher): { fetcher: Fetcher; probes: FetchResponse[] } {
  const probes: FetchResponse[] = [];
  const wrapped = new Proxy(fetcher, {
    get(target, key) {
      if (key === 'fetch')
        return async (url: string, options: Parameters<Fetcher['fetch']>[1]) => {
          const res = await target.fetch(url, options);
          if (options.kind === 'probe') probes.push(res);
          return res;
        };
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { fetcher: wrapped, probes };
}

const timesWritten = (html: string) => written.filter((chunk) => chunk === html).length;

describe('one tokenisation of the homepage', () => {
  const web = useFakeInternet();

  it('readHomepage runs one parser for its three readers', () => {
    const html = '<html lang="en"><head><title>T</title></head><body><a href="/feed">RSS</a></body></html>';
    written.length = 0;
    readHomepage(html, 'https://one.test/');
    expect(written).toEqual([html]);
  });

  // A site with feeds and a sitemap, one whose robots.txt shuts everything (feeds are not looked for), one with
  // meta signals, and one whose verdict samples article pages (each tokenised once too, as before).
  for (const host of [SITES.news, SITES.disallow, FACTS_SITES.aiMeta, FACTS_SITES.conflicting]) {
    it(`a contract run on ${host} writes its homepage to a parser once`, async () => {
      const { fetcher, probes } = recording(web.fetcher);
      written.length = 0;
      const found = await discoverContract(
        fetcher,
        { domainId: `other:intl:${host}`, registrableDomain: host, country: 'intl', category: 'news' },
        { now },
      );
      const homepage = probes.find((p) => p.finalUrl === found.metadata.homepage.final_url);
      expect(homepage).toBeDefined();
      const html = decodeText(homepage!.body, homepage!.headers['content-type']);
      expect(html.length).toBeGreaterThan(0);
      expect(timesWritten(html)).toBe(1);
    });
  }
});
