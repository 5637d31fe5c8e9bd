import { COUNTRY_CODES } from '../src/domain/countries.js';
import { loadRealPages } from '../test/support/real-pages.js';
import { isHoldOut } from '../test/support/real-pages-eval.js';

const pages = loadRealPages().filter((p) => !isHoldOut(p.id));
function visible(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ');
}
const cache = new Map<string, Array<[string, RegExp]>>();
function namesFor(lang: string) {
  let v = cache.get(lang);
  if (v) return v;
  const dn = new Intl.DisplayNames([lang, 'en'], { type: 'region' });
  v = [];
  for (const c of COUNTRY_CODES) {
    if (c === 'intl') continue;
    const n = dn.of(c.toUpperCase());
    if (n && n.length > 3)
      v.push([c, new RegExp(`(?<!\\p{L})${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'gu')]);
  }
  if (lang === 'en')
    v.push(['us', /\bU\.S\.|\bUS\b|\bAmerican?s?\b/g], ['gb', /\bU\.K\.|\bUK\b|\bBritain\b|\bBritish\b/g]);
  cache.set(lang, v);
  return v;
}
let right = 0,
  wrong = 0,
  none = 0;
for (const p of pages) {
  if (!p.labels.country) continue;
  const lang = p.labels.language.split('-')[0]!;
  const text = visible(p.html);
  const counts: Array<[string, number]> = namesFor(lang).map(
    ([c, r]) => [c, (text.match(r) ?? []).length] as [string, number],
  );
  const agg = new Map<string, number>();
  for (const [c, n] of counts) agg.set(c, (agg.get(c) ?? 0) + n);
  const ranked = [...agg].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const total = ranked.reduce((s, [, n]) => s + n, 0);
  const top = ranked[0];
  const ok = top && top[1] >= 3 && top[1] >= 0.5 * total;
  if (!ok) none++;
  else if (top![0] === p.labels.country) right++;
  else wrong++;
  console.log(
    p.id,
    p.labels.country,
    ok ? (top![0] === p.labels.country ? 'RIGHT' : 'WRONG') : '-',
    ranked
      .slice(0, 4)
      .map(([c, n]) => `${c}:${n}`)
      .join(' '),
  );
}
console.log({ right, wrong, none });
