import { describe, expect, it } from 'vitest';
import { aggregatorSelfDescription } from '../../../src/engine/aggregator-front.js';
import { judgeNews, type NewsInput } from '../../../src/engine/news-verdict.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';

describe('aggregatorSelfDescription', () => {
  it('finds a front that says it gathers other outlets’ news', () => {
    for (const description of [
      'Updating news headlines from Hong Kong regional and global sources. Business, sport and weather.',
      'A place to find and share interesting content from around the web.',
      'Η πιο Άμεση Ενημέρωση από τις μεγαλύτερες Ελληνικές πηγές ειδήσεων.',
      'Das Portal bündelt Meldungen aus über 300 Nachrichtenquellen.',
      'The news aggregator for your city.',
    ])
      expect(aggregatorSelfDescription('Some Site', description)).toContain('description');
  });

  it('leaves a newsroom describing what it reports, and its sources of a story', () => {
    for (const description of [
      'Breaking news, analysis and opinion from Hong Kong and the region.',
      'Our reporters rely on trusted sources.',
      'Resources for journalists and readers.',
      'Die neuesten Nachrichten aus Berlin und Brandenburg.',
      // A newsroom ranking itself among news sources.
      "One of India's leading news sources for politics, business and sport.",
      'El Diario, una de las principales fuentes de noticias de México.',
      'Μία από τις πιο αξιόπιστες πηγές ειδήσεων στην Ελλάδα.',
      'Eine der wichtigsten Nachrichtenquellen Österreichs.',
    ])
      expect(aggregatorSelfDescription('The Daily Example', description)).toBeNull();
    expect(aggregatorSelfDescription(null, null)).toBeNull();
  });
});

describe('judgeNews on an aggregator’s front', () => {
  const stories = Array.from(
    { length: 40 },
    (_, i) => `<a href="/news/${270545000 + i}/story-about-topic-${i}">Story ${i} headline</a>`,
  ).join('');
  const nav = `<nav><a href="/politics">Politics</a><a href="/business">Business</a><a href="/sport">Sport</a>
    <a href="/world">World</a><a href="/opinion">Opinion</a></nav>`;
  const front = (description: string): NewsInput => ({
    host: 'www.citynews.example',
    registrableDomain: 'citynews.example',
    homepage: readPageFacts(
      `<html><head><title>City News</title><meta name="description" content="${description}"></head>${nav}${stories}</html>`,
      'https://www.citynews.example/',
    ),
    articles: [],
    sitemap: null,
    feeds: [],
    now: new Date('2026-11-26T12:00:00Z'),
  });

  it('holds it in the maybe band, where the same front describing its own reporting is news', () => {
    expect(judgeNews(front('Latest news from the city and the region.')).verdict).toBe('news');
    const v = judgeNews(front('Updating news headlines from regional and global sources.'));
    expect(v.verdict).toBe('maybe');
    const cap = v.reasons.find((r) => r.signal === 'aggregator_front')!;
    expect(cap.weight).toBeLessThan(0);
    expect(cap.evidence).toContain('sources');
  });
});
