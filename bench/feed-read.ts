// CPU per feed of readFeed (feedsmith and our aggregates, as the feed worker runs it) over the repository's real
// feeds (test/fixtures/sitemaps/crawler-commons: two RSS 2.0, an Atom and an RSS 1.0 feed) and the latency
// bench's own RSS feed (bench/latency-internet-server.ts). Beside it, in the same run, the same bodies only
// tokenised by htmlparser2 in XML mode: the cost of reading the bytes at all, so the ratio says how much of a
// feed's CPU is more than reading it. Run: npx tsx bench/feed-read.ts [rounds]
import { readFileSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import { readFeed } from '../src/engine/feed-content.js';
import { rss } from '../test/fixtures/fake-internet/content.js';

const dir = new URL('../test/fixtures/sitemaps/crawler-commons/', import.meta.url);
const bodies: Record<string, Buffer> = {
  'feed.rss (RSS 2.0)': readFileSync(new URL('feed.rss', dir)),
  'xmlRss_pubDate.xml (RSS 2.0)': readFileSync(new URL('xmlRss_pubDate.xml', dir)),
  'atom.xml (Atom)': readFileSync(new URL('atom.xml', dir)),
  'test-rss10-syndication.xml (RSS 1.0)': readFileSync(new URL('test-rss10-syndication.xml', dir)),
  'latency bench feed (RSS 2.0)': Buffer.from(
    rss('Feed of s0001.latency.test', 'https://s0001.latency.test/'),
  ),
};

const rounds = Number(process.argv[2] ?? 5);
const perRound = 2000;
const now = new Date('2026-11-27T00:00:00Z');

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function tokenise(body: Buffer): number {
  let tags = 0;
  const parser = new Parser(
    {
      onopentag: () => {
        tags += 1;
      },
    },
    { xmlMode: true },
  );
  parser.write(body.toString('utf8'));
  parser.end();
  return tags;
}

/** CPU ms per call of `work` over every body, the median of `rounds` rounds (after one warm-up round). */
function measure(work: (body: Buffer) => unknown, list: Buffer[]): number {
  const results: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const started = cpuMs();
    for (let i = 0; i < perRound; i++) work(list[i % list.length]!);
    if (round > 0) results.push((cpuMs() - started) / perRound);
  }
  results.sort((a, b) => a - b);
  return results[Math.floor(results.length / 2)]!;
}

for (const [name, body] of Object.entries(bodies)) {
  if (readFeed(body, now) === null) throw new Error(`${name} does not read as a feed`);
}
const all = Object.values(bodies);
const feedMs = measure((body) => readFeed(body, now), all);
const tokeniseMs = measure(tokenise, all);
console.log(`${all.length} feeds, ${rounds} rounds of ${perRound} reads (median round)`);
for (const [name, body] of Object.entries(bodies)) {
  console.log(`  ${name.padEnd(38)} readFeed ${measure((b) => readFeed(b, now), [body]).toFixed(3)} ms`);
}
console.log(
  `readFeed ${feedMs.toFixed(3)} ms per feed; XML tokenising alone ${tokeniseMs.toFixed(3)} ms; ratio ${(feedMs / tokeniseMs).toFixed(1)}`,
);
