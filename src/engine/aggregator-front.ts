// A front page that describes its site as gathering other outlets' news: "headlines from Hong Kong regional and
// global sources", "content from around the web", "από τις μεγαλύτερες Ελληνικές πηγές ειδήσεων". An aggregator's
// front has a newsroom's layout — dozens of stories under a section menu — and calls itself news, so news-verdict.ts
// holds it in the maybe band for a person to look at. A newsroom describes what it reports, not whom it collects. Pure.

import { frontTextEvidence } from './site-kind-signals.js';

/**
 * Words of collecting others' news, in a front page's title or meta description: "(from|of|across) … sources" with at
 * most five words between, "from around the web", a news aggregator, and "news sources" in a few more languages.
 */
const AGGREGATOR_SELF_WORDS =
  /\b(?:from|of|across)\s+(?:[\p{L}\p{N}'’-]+\s+){0,5}sources\b|\bfrom\s+(?:all\s+)?around\s+the\s+web\b|\bnews\s+aggregator\b|\baggregat(?:es|ing|ed)\s+(?:the\s+)?(?:latest\s+)?(?:news|headlines|stories)\b|nachrichtenquellen|agr[ée]gateur|agregador\s+de\s+not[ií]cias|fuentes\s+de\s+noticias|fontes\s+de\s+not[ií]cias|sources\s+d['’]information|источник(?:ов|и)\s+новостей|πηγ(?:ές|ών)\s+ειδήσεων/iu;

/**
 * "One of …" just before the words: a newsroom ranking itself among news sources ("one of India's leading news
 * sources", "una de las principales fuentes de noticias", "μία από τις πιο αξιόπιστες πηγές ειδήσεων"), not a site
 * saying where its stories come from.
 */
const ONE_OF =
  /(?:^|[^\p{L}])(?:one|una|uno|um|uma|eine[rsm]?|l['’]une?|un[ea]?|μία|μια|ένα|ένας|один|одна|одно)\s+(?:of|de|der|des|dos|das|από|из)\s/iu;
/** How far before the words "one of" is looked for. */
const ONE_OF_REACH = 40;

/** Where a front page's title or description says the site gathers other outlets' news, as evidence; else null. */
export function aggregatorSelfDescription(title: string | null, description: string | null): string | null {
  return frontTextEvidence(title, description, (text) => {
    const found = AGGREGATOR_SELF_WORDS.exec(text);
    if (found === null) return null;
    const before = text.slice(Math.max(0, found.index - ONE_OF_REACH), found.index + found[0].length);
    return ONE_OF.test(before) ? null : found[0];
  });
}
