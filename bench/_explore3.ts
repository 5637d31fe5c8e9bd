import { loadRealPages } from '../test/support/real-pages.js';
import { isHoldOut } from '../test/support/real-pages-eval.js';

const pages = loadRealPages().filter((p) => !isHoldOut(p.id) && p.labels.language.startsWith('en'));
function visible(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ');
}
const US =
  /\b(colou?r|favou?rite|honou?r|labou?r|neighbou?r|behaviou?r|humou?r|rumou?r|savou?r|flavou?r)(s|ed|ing)?\b|\b(center|theater|meter|liter|fiber)s?\b|\b(centre|theatre|litre|fibre)s?\b|\b(defen[cs]e|offen[cs]e|licen[cs]e)\b|\b(organi[sz]ation|reali[sz]e|recogni[sz]e|apologi[sz]e|criti[sz]e|emphasi[sz]e|minimi[sz]e|maximi[sz]e|priori[sz]e|summari[sz]e|categori[sz]e|organi[sz]e|authori[sz]e|characteri[sz]e)(s|d|r|rs|ing|ation)?\b|\b(travel+)(ed|er|ing)\b|\b(catalog(ue)?|program(me)?|analy[sz]e[sd]?)\b/gi;
for (const p of pages) {
  const text = visible(p.html);
  let us = 0,
    gb = 0;
  for (const m of text.matchAll(US)) {
    const w = m[0].toLowerCase();
    if (
      /our|centre|theatre|litre|fibre|ence$|is(e|ing|ation|ed)|isation|travell|catalogue|programme|yse/.test(
        w,
      ) && !/(colour|favour|honour|labour|neighbour|behaviour|humour|rumour|savour|flavour)/.test(w)
        ? true
        : /(colour|favour|honour|labour|neighbour|behaviour|humour|rumour|savour|flavour)/.test(w)
    )
      gb++;
    else us++;
  }
  console.log(String(p.labels.country).padEnd(5), `us ${us} gb ${gb}`.padEnd(14), p.id);
}
