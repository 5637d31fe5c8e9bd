// Runs the published robots.txt cases in test/fixtures/robots/robots.vectors.json (google/robotstxt, RFC 9309,
// google/robotstxt-spec-test, crawler-commons, and Seedbed's own) through parseRobots, as the engine asks them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../../src/engine/robots.js';

interface Vector {
  name: string;
  source: string;
  robotstxt: string;
  agent: string;
  url: string;
  allowed: boolean;
  bytes_prefix_hex?: string;
  reason?: string;
}

interface VectorFile {
  sources: Record<string, unknown>;
  vectors: Vector[];
  differences: Vector[];
  sitemap_vectors: Array<{
    name: string;
    source: string;
    robotstxt: string;
    robots_url: string;
    sitemaps: string[];
  }>;
  crawl_delay_vectors: Array<{
    name: string;
    source: string;
    robotstxt: string;
    agent: string;
    crawl_delay: number | null;
  }>;
  skipped: Array<{ name: string; source: string; reason: string }>;
}

const file = JSON.parse(
  readFileSync(new URL('../../fixtures/robots/robots.vectors.json', import.meta.url), 'utf8'),
) as VectorFile;

/** `{{c*n}}` stands for n copies of c (Google's long-line cases). */
const expand = (text: string) =>
  text.replace(/\{\{(.)\*(\d+)\}\}/g, (_m, c: string, n: string) => c.repeat(Number(n)));

function ask(v: Vector): { allowed: boolean; allowedFor: boolean } {
  const url = expand(v.url);
  const text = expand(v.robotstxt);
  const input = v.bytes_prefix_hex
    ? Buffer.concat([Buffer.from(v.bytes_prefix_hex, 'hex'), Buffer.from(text, 'utf8')])
    : text;
  const robotsUrl = new URL('/robots.txt', url).href;
  return {
    allowed: parseRobots(robotsUrl, input, 200, v.agent).allowed(url),
    allowedFor: parseRobots(robotsUrl, input).allowedFor(v.agent, url),
  };
}

describe('robots.txt vectors', () => {
  it('names a known source for every case', () => {
    const all = [...file.vectors, ...file.differences, ...file.sitemap_vectors, ...file.crawl_delay_vectors];
    expect(all.length).toBeGreaterThan(650);
    for (const v of [...all, ...file.skipped]) expect(Object.keys(file.sources)).toContain(v.source);
  });

  it.each(file.vectors.map((v) => [`${v.source}: ${v.name}`, v] as const))('%s', (_name, v) => {
    expect(ask(v)).toEqual({ allowed: v.allowed, allowedFor: v.allowed });
  });

  it.each(
    file.differences.map((v) => [`${v.source}: ${v.name} (differs on purpose)`, v] as const),
  )('%s', (_name, v) => {
    expect(v.reason).toBeTruthy();
    expect(ask(v)).toEqual({ allowed: v.allowed, allowedFor: v.allowed });
  });

  it.each(
    file.sitemap_vectors.map((v) => [`${v.source}: ${v.name}`, v] as const),
  )('sitemaps: %s', (_n, v) => {
    expect(parseRobots(v.robots_url, v.robotstxt).sitemap_urls).toEqual(v.sitemaps);
  });

  it.each(
    file.crawl_delay_vectors.map((v) => [`${v.source}: ${v.name}`, v] as const),
  )('crawl-delay: %s', (_n, v) => {
    expect(parseRobots('https://example.org/robots.txt', v.robotstxt, 200, v.agent).crawl_delay).toBe(
      v.crawl_delay,
    );
  });

  for (const s of file.skipped) it.skip(`${s.source}: ${s.name} — ${s.reason}`, () => {});
});
