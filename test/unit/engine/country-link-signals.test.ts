import { describe, expect, it } from 'vitest';
import { nationalPlatformOf } from '../../../src/domain/national-platforms.js';
import { type CountryInput, guessCountry } from '../../../src/engine/country-guess.js';
import { nationalPlatformReason, siblingDomainReason } from '../../../src/engine/country-link-signals.js';

function input(host: string, extra: Partial<CountryInput> = {}): CountryInput {
  return {
    host,
    registrableDomain: host.replace(/^www\./, ''),
    htmlLang: null,
    contentLanguage: [],
    hreflang: [],
    languages: [],
    ...extra,
  };
}
const links = (hosts: string[]) => hosts.map((h) => `https://${h}/x`);

describe('the publisher name under a country TLD', () => {
  it('names the one country whose TLD carries the name', () => {
    const guess = guessCountry(
      input('www.elnuevodia.com', {
        htmlLang: 'es',
        languages: [{ code: 'es' }],
        externalLinks: links(['elnuevodia.pr', 'www.facebook.com', 'clasificados.com']),
      }),
    );
    expect(guess.code).toBe('pr');
    expect(guess.reasons.map((r) => r.signal)).toEqual(['sibling_domain']);
    expect(siblingDomainReason('nikkei.com', links(['www.nikkei.co.jp']))).toMatchObject({
      country: 'jp',
      evidence: 'links to nikkei.co.jp, its own name under the TLD of jp',
    });
  });

  it('names none for editions in several countries, another name, a generic TLD or a short name', () => {
    const editions = links(['huffingtonpost.de', 'huffingtonpost.fr', 'huffingtonpost.co.uk']);
    expect(siblingDomainReason('huffingtonpost.com', editions)).toBeNull();
    expect(siblingDomainReason('diario.com', links(['otro.es', 'diario.io', 'diario.com']))).toBeNull();
    expect(siblingDomainReason('abc.es', links(['abc.net.au']))).toBeNull();
    expect(siblingDomainReason(42 as never, null as never)).toBeNull();
  });

  it('stays below a ccTLD', () => {
    expect(guessCountry(input('zeitung.de', { externalLinks: links(['zeitung.at']) })).code).toBe('de');
  });
});

describe('platforms read in one country', () => {
  it('are matched by host or subdomain, and the table leaves out platforms read across borders', () => {
    expect(nationalPlatformOf('service.weibo.com')).toEqual({ country: 'cn', language: 'zh' });
    expect(nationalPlatformOf('blog.naver.com')).toEqual({ country: 'kr', language: 'ko' });
    for (const host of ['facebook.com', 'vk.com', 'line.me', 'notweibo.com', ''])
      expect(nationalPlatformOf(host)).toBeNull();
  });

  it("name the country on a page in its readers' language only", () => {
    const share = links(['service.weibo.com', 'sns.qzone.qq.com', 'www.douban.com', 'www.linkedin.com']);
    expect(nationalPlatformReason(share, ['zh'])).toMatchObject({ country: 'cn', weight: 1 });
    // An English Hong Kong page with a Weibo button is not written for readers in China.
    expect(nationalPlatformReason(share, ['en'])).toBeNull();
    expect(
      guessCountry(input('qdaily.com', { languages: [{ code: 'zh' }], externalLinks: share })).code,
    ).toBe('cn');
  });

  it('name none when the platforms of two countries are linked alike', () => {
    expect(nationalPlatformReason(links(['weibo.com', 'plurk.com']), ['zh'])).toBeNull();
  });
});

describe('.gov, .mil and .edu', () => {
  it('name the United States, as a host and as link targets', () => {
    const guess = guessCountry(input('www.archives.gov'));
    expect(guess.code).toBe('us');
    expect(guess.reasons[0]).toMatchObject({ signal: 'cctld', evidence: 'www.archives.gov ends in .gov' });
    const fed = links(['www.cdc.gov', 'www.nasa.gov', 'www.army.mil', 'www.usda.gov', 'fec.gov']);
    expect(guessCountry(input('news.com', { externalLinks: fed })).code).toBe('us');
    const research = links([
      'cancer.ucsf.edu',
      'www.hsph.harvard.edu',
      'www.med.upenn.edu',
      'www.nih.gov',
      'x.ac.uk',
    ]);
    expect(guessCountry(input('magazine.org', { externalLinks: research })).code).toBe('us');
    // Other governments' gov.xx and universities' ac.xx name their own country.
    expect(guessCountry(input('www.gov.uk')).code).toBe('gb');
    expect(guessCountry(input('www.ox.ac.uk')).code).toBe('gb');
  });
});
