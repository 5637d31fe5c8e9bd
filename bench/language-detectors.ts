// Compares the pure-JS language detectors on short news titles (test/fixtures/languages/titles.json): per title,
// and per site (the majority of 6 titles, as title-language.ts decides). Run: npx tsx bench/language-detectors.ts
import { readFileSync } from 'node:fs';
import { eld as eldLarge } from 'eld/large';
import { eld as eldMedium } from 'eld/medium';
import { eld as eldSmall } from 'eld/small';
import { detect as tinyNormal } from 'tinyld';
import { detect as tinyHeavy } from 'tinyld/heavy';
import { detect as tinyLight } from 'tinyld/light';

const data = JSON.parse(
  readFileSync(new URL('../test/fixtures/languages/titles.json', import.meta.url), 'utf8'),
) as {
  titles: Record<string, string[]>;
};

const detectors: Record<string, (text: string) => string> = {
  'eld small': (t) => eldSmall.detect(t).language,
  'eld medium': (t) => eldMedium.detect(t).language,
  'eld large': (t) => eldLarge.detect(t).language,
  'tinyld light': (t) => tinyLight(t),
  'tinyld normal': (t) => tinyNormal(t),
  'tinyld heavy': (t) => tinyHeavy(t),
};

function majority(codes: string[]): string {
  const counts = new Map<string, number>();
  for (const c of codes) counts.set(c, (counts.get(c) ?? 0) + 1);
  const [code, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return n / codes.length >= 0.6 ? code : '';
}

const total = Object.values(data.titles).reduce((n, list) => n + list.length, 0);
console.log(`${total} titles in ${Object.keys(data.titles).length} languages`);
for (const [name, detect] of Object.entries(detectors)) {
  let right = 0;
  let sitesRight = 0;
  let sites = 0;
  const misses: Record<string, number> = {};
  const started = performance.now();
  for (const [lang, titles] of Object.entries(data.titles)) {
    const codes = titles.map((t) => detect(t));
    for (const code of codes) {
      if (code === lang) right += 1;
      else misses[lang] = (misses[lang] ?? 0) + 1;
    }
    for (let i = 0; i + 6 <= codes.length; i += 6) {
      sites += 1;
      if (majority(codes.slice(i, i + 6)) === lang) sitesRight += 1;
    }
  }
  const ms = performance.now() - started;
  const missText = Object.entries(misses)
    .map(([l, n]) => `${l}:${n}`)
    .join(' ');
  console.log(
    `${name.padEnd(14)} titles ${right}/${total} (${((100 * right) / total).toFixed(1)}%)  sites ${sitesRight}/${sites}  ${ms.toFixed(0)} ms  misses ${missText}`,
  );
}
