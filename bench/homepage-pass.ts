// Main-thread CPU of reading a homepage, over the real-page corpus (test/fixtures/real-pages): the three
// readers each tokenising the page (parseHomepage, readPageSignals, readPageFacts), the four passes a contract
// run made before (discoverFeeds read the page again), and readHomepage's one shared pass.
// Run: npx tsx bench/homepage-pass.ts [rounds]
import { parseHomepage, parsePage } from '../src/engine/feed-candidates.js';
import { readHomepage } from '../src/engine/homepage-read.js';
import { readPageFacts } from '../src/engine/page-facts.js';
import { readPageSignals } from '../src/engine/page-signals.js';
import { loadRealPages } from '../test/support/real-pages.js';

const pages = loadRealPages();
const rounds = Number(process.argv[2] ?? 5);

const variants: Record<string, (html: string, url: string) => unknown> = {
  'three passes': (html, url) => [parseHomepage(html, url), readPageSignals(html), readPageFacts(html, url)],
  'four passes (contract before)': (html, url) => [
    parseHomepage(html, url),
    parsePage(html, url),
    readPageSignals(html),
    readPageFacts(html, url),
  ],
  'one pass': (html, url) => readHomepage(html, url),
};

/** CPU time (user + system) of one sweep over the corpus, in ms: wall time would count the other tenants. */
function sweep(read: (html: string, url: string) => unknown): number {
  const start = process.cpuUsage();
  for (const page of pages) read(page.html, page.url);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const read of Object.values(variants)) sweep(read); // warm-up: JIT and caches
const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
// Interleaved, so drift in the machine's load touches every variant alike.
for (let round = 0; round < rounds; round += 1)
  for (const [name, read] of Object.entries(variants)) times[name]!.push(sweep(read));

const bytes = pages.reduce((n, p) => n + p.html.length, 0);
console.log(
  `${pages.length} pages, ${(bytes / 1e6).toFixed(1)} M chars, median of ${rounds} rounds (CPU ms)`,
);
const base = median(times['three passes']!);
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(
    `${name.padEnd(30)} ${m.toFixed(0).padStart(6)} ms  ${(m / pages.length).toFixed(2)} ms/page  ratio ${(m / base).toFixed(3)}`,
  );
}
