// Builds a real-page set (test/fixtures/real-pages*) from labelled entries and the raw pages they name, shrinking each
// page as the sets' SOURCES.md describe: on the raw bytes (so the declared charset stays true), HTML comments dropped,
// <style> elements and non-JSON-LD <script> elements emptied (tags and attributes kept, JSON-LD kept whole), then gzip.
//
//   node scripts/build-real-pages-set.mjs <entries.json> <raw-dir> <out-dir> "<about>"
//
// <entries.json> holds the manifest entries, labels included, written before the engine ran on any page;
// <raw-dir>/<id>.html is each page as its source repository stores it. registrable_domain is recomputed as the service
// computes it (tldts, private domains allowed) and the id becomes "<registrable_domain>-1"; a page whose registrable
// domain is already in another real-page set under test/fixtures is refused, so the sets stay disjoint by publisher.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { getDomain } from 'tldts';

const [entriesFile, rawDir, outDir, about] = process.argv.slice(2);
if (!entriesFile || !rawDir || !outDir || !about) {
  console.error('usage: build-real-pages-set.mjs <entries.json> <raw-dir> <out-dir> "<about>"');
  process.exit(2);
}

export function shrinkPage(bytes) {
  const text = bytes.toString('latin1');
  const shrunk = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/(<style\b[^>]*>)[\s\S]*?(<\/style\s*>)/gi, '$1$2')
    .replace(/(<script\b([^>]*)>)([\s\S]*?)(<\/script\s*>)/gi, (whole, open, attrs, _body, close) =>
      /application\/ld\+json/i.test(attrs) ? whole : `${open}${close}`,
    );
  return Buffer.from(shrunk, 'latin1');
}

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures');
const taken = new Set();
for (const dir of readdirSync(fixtures).filter((d) => d.startsWith('real-pages'))) {
  const manifest = join(fixtures, dir, 'manifest.json');
  // The set being built is not another set: compared as absolute paths, since outDir may be given relative.
  if (resolve(fixtures, dir) === resolve(outDir) || !existsSync(manifest)) continue;
  for (const page of JSON.parse(readFileSync(manifest, 'utf8')).pages) taken.add(page.registrable_domain);
}

mkdirSync(outDir, { recursive: true });
const pages = [];
const seen = new Set();
for (const entry of JSON.parse(readFileSync(entriesFile, 'utf8'))) {
  const raw = readFileSync(join(rawDir, `${entry.id}.html`));
  const host = new URL(entry.url).hostname;
  const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
  if (taken.has(domain)) throw new Error(`${entry.url}: ${domain} is already in another real-page set`);
  if (seen.has(domain)) throw new Error(`${entry.url}: a second page of ${domain}`);
  seen.add(domain);
  const id = `${domain}-1`;
  writeFileSync(join(outDir, `${id}.html.gz`), gzipSync(shrinkPage(raw), { level: 9 }));
  pages.push({ ...entry, id, registrable_domain: domain });
}
writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify({ about, pages }, null, 2)}\n`);
console.log(`${pages.length} pages, ${pages.filter((p) => p.news).length} news → ${outDir}`);
