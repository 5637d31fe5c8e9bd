import { loadRealPages } from '../test/support/real-pages.js';
import { isHoldOut } from '../test/support/real-pages-eval.js';

const pages = loadRealPages().filter((p) => !isHoldOut(p.id));
for (const p of pages) {
  const gens = [...p.html.matchAll(/<meta[^>]+name=["']?generator["']?[^>]*>/gi)].map(
    (m) => /content=["']([^"']*)/i.exec(m[0])?.[1] ?? /value=["']([^"']*)/i.exec(m[0])?.[1] ?? '?',
  );
  const ws =
    /"@type"\s*:\s*"(WebSite|Organization|Corporation|GovernmentOrganization|NewsMediaOrganization|WebPage|Article|BlogPosting|TechArticle|ScholarlyArticle|Person)"/g;
  const types = [...new Set([...p.html.matchAll(ws)].map((m) => m[1]))];
  console.log(
    p.labels.kind.padEnd(14),
    p.id.padEnd(32),
    gens.join(' | ').slice(0, 80),
    '::',
    types.join(','),
  );
}
