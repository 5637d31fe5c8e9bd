import { describe, expect, it } from 'vitest';
import { mailPortalFront } from '../../../src/engine/mail-portal-front.js';
import { judgeNews, type NewsInput } from '../../../src/engine/news-verdict.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';

describe('mailPortalFront', () => {
  it.each([
    // WEB.DE's and GMX's own titles (test/fixtures/real-pages-thirteenth, real-pages-sixth).
    ['WEB.DE - kostenlose E-Mail-Adresse, FreeMail & Nachrichten', null, 'E-Mail'],
    ['GMX - kostenlose E-Mail, Cloud, Nachrichten & Freemail', null, 'E-Mail'],
    ['Libero.it - Email, Notizie, Meteo, Sport', null, 'Email'],
    ['Portal', 'Webmail, news and weather', 'Webmail'],
    ['ポータル | メール・ニュース・天気', null, 'メール'],
  ])('finds e-mail offered in %j (site name %j)', (title, siteName, word) => {
    expect(mailPortalFront(title, siteName)).toContain(`"${word}"`);
  });

  it('reads a description only where it lists e-mail among the services', () => {
    // Yahoo! JAPAN's own description (test/fixtures/real-pages-eighth).
    const portal =
      '日本最大級のポータルサイト。検索、オークション、ニュース、メール、コミュニティ、ショッピング、など80以上のサービスを展開。';
    expect(mailPortalFront('Yahoo! JAPAN', null, portal)).toContain(
      '"メール" in the front page\'s description',
    );
    expect(mailPortalFront('Portal', null, 'Search, Email, News, Weather')).toContain('"Email"');
    for (const newsroom of [
      'Breaking news and analysis, delivered to your email every morning.',
      'Get the latest headlines by email, SMS and push.',
      'News, sport, weather and email alerts.',
    ])
      expect(mailPortalFront('The Daily Example', 'The Daily Example', newsroom)).toBeNull();
  });

  it.each([
    // Newspapers whose names hold mail-like words, and a word that only begins like one.
    ['Daily Mail Online', 'Mail Online'],
    ['El Correo: noticias de Bizkaia y Álava', 'El Correo'],
    ['매일경제 - 뉴스', '매일경제'],
    ['Mail & Guardian: news from South Africa', null],
    ['The Emailed Times', null],
    [null, null],
  ])('leaves the title %j (site name %j)', (title, siteName) => {
    expect(mailPortalFront(title, siteName)).toBeNull();
  });
});

describe('judgeNews on a mail portal’s front', () => {
  const stories = Array.from(
    { length: 40 },
    (_, i) =>
      `<a href="/magazine/politik/story-about-topic-number-${i}-${270545000 + i}">Story ${i} headline here</a>`,
  ).join('');
  const nav = `<nav><a href="/magazine/politik">Politik</a><a href="/magazine/wirtschaft">Wirtschaft</a>
    <a href="/magazine/sport">Sport</a><a href="/magazine/unterhaltung">Unterhaltung</a><a href="/magazine/kultur">Kultur</a></nav>`;
  const bylines = '<span class="byline">von Anna Schmidt</span><span class="byline">von Jonas Weber</span>';
  const front = (title: string): NewsInput => ({
    host: 'www.portal.example',
    registrableDomain: 'portal.example',
    homepage: readPageFacts(
      `<html><head><title>${title}</title></head><body>${nav}${stories}${bylines}</body></html>`,
      'https://www.portal.example/',
    ),
    articles: [],
    sitemap: null,
    feeds: [],
    now: new Date('2026-11-26T12:00:00Z'),
  });

  it('holds it in the maybe band, where the same front under a newspaper’s title is news', () => {
    expect(judgeNews(front('Portal Zeitung - Nachrichten aus der Region')).verdict).toBe('news');
    const v = judgeNews(front('PORTAL - kostenlose E-Mail-Adresse, FreeMail & Nachrichten'));
    expect(v.verdict).toBe('maybe');
    const cap = v.reasons.find((r) => r.signal === 'mail_portal_front');
    expect(cap?.weight).toBeLessThan(0);
    expect(cap?.evidence).toContain('E-Mail');
  });
});
