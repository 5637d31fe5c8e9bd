import { describe, expect, it } from 'vitest';
import { judgeSource } from '../../../src/engine/source-verdicts.js';
import type { Fetcher } from '../../../src/ports/fetcher.js';

// No fetch may happen: the entry page decides the news verdict, so no article is sampled.
const noFetcher = new Proxy(
  {},
  { get: () => () => Promise.reject(new Error('no fetch expected')) },
) as Fetcher;

describe('judgeSource: the country guess reads the entry page beyond its language tags', () => {
  it('passes og:locale, times, address, external links and text markers to guessCountry', async () => {
    const html = `<html lang="en"><head><meta property="og:locale" content="en_IE">
      <script type="application/ld+json">{"@type":"NewsMediaOrganization","address":{"addressCountry":"IE"}}</script>
      </head><body><p>Tickets cost £25, or £40 at the door. 10:14 AM EDT, 11:30 AM EDT.</p></body></html>`;
    const verdicts = await judgeSource(noFetcher, {
      entryUrl: 'https://paper.example.com/',
      registrableDomain: 'example.com',
      html,
      contentLanguage: undefined,
      languages: [{ code: 'en', sources: ['html_lang'] }],
      feeds: [],
      sitemap: null,
      allowed: () => true,
      now: new Date('2026-11-26T12:00:00Z'),
    });
    const signals = verdicts.country_guess.reasons.map((r) => r.signal);
    expect(signals).toEqual(
      expect.arrayContaining(['address_country', 'og_locale_region', 'text_currency', 'text_time_zone']),
    );
    expect(verdicts.country_guess.code).toBe('ie');
  });

  it('passes the places the entry page names', async () => {
    const html = `<html lang="es"><body><nav><a href="/caracas">Caracas</a> <a href="/zulia">Zulia</a>
      <a href="/lara">Barquisimeto</a></nav><p>Lluvias en Caracas y Maracaibo.</p></body></html>`;
    const verdicts = await judgeSource(noFetcher, {
      entryUrl: 'https://diario.example.com/',
      registrableDomain: 'example.com',
      html,
      contentLanguage: undefined,
      languages: [{ code: 'es', sources: ['html_lang'] }],
      feeds: [],
      sitemap: null,
      allowed: () => true,
      now: new Date('2026-11-26T12:00:00Z'),
    });
    expect(verdicts.country_guess.reasons.map((r) => r.signal)).toEqual(['place_names']);
    expect(verdicts.country_guess.code).toBe('ve');
  });
});
