// What a homepage declares about itself beyond feeds: its language (<html lang>, Content-Language meta, hreflang
// alternates), robots meta directives (noai, noimageai) and TDMRep meta tags. Pure, over HTML text.
import { languageList, normaliseLanguageTag } from './language-tags.js';
import { type PageCollector, tokenise } from './page-pass.js';

export { languageList, normaliseLanguageTag } from './language-tags.js';

export interface PageSignals {
  /** <html lang> (or xml:lang), normalised; null when absent or not a language tag. */
  html_lang: string | null;
  /** <meta http-equiv="content-language">, normalised tags. */
  meta_content_language: string[];
  /** hreflang of <link rel="alternate">, normalised, x-default left out, once each. */
  hreflang: string[];
  /** <meta property="og:locale"> (`pt_PT` read as `pt-pt`), normalised; null when absent or not a language tag. */
  og_locale: string | null;
  /** Directives of <meta name="robots"> (and of any bot-specific robots meta), lower-cased. */
  robots_directives: string[];
  /** <meta name="tdm-reservation">: the content as written (TDMRep: "1" reserves, "0" does not). */
  tdm_reservation: string | null;
  /** <meta name="tdm-policy">. */
  tdm_policy: string | null;
}

/** Robots meta names that speak to crawlers (the generic one and the common per-bot ones). */
const ROBOTS_META = /^(robots|googlebot|bingbot|gptbot|ccbot)$/;

export function readPageSignals(html: string): PageSignals {
  const collector = pageSignalsCollector();
  tokenise(html, [collector.handler]);
  return collector.result();
}

/** readPageSignals as a collector of a shared pass (page-pass.ts). */
export function pageSignalsCollector(): PageCollector<PageSignals> {
  const signals: PageSignals = {
    html_lang: null,
    meta_content_language: [],
    hreflang: [],
    og_locale: null,
    robots_directives: [],
    tdm_reservation: null,
    tdm_policy: null,
  };
  const hreflang = new Set<string>();
  const directives = new Set<string>();
  let inBody = false;
  const handler = {
    onopentag(name: string, attribs: Record<string, string>) {
      if (name === 'body') inBody = true;
      if (name === 'html' && signals.html_lang === null)
        signals.html_lang = normaliseLanguageTag(attribs['lang'] ?? attribs['xml:lang']);
      // The head's declarations only: a <meta> or <link> inside an article body is someone else's.
      if (inBody) return;
      if (name === 'meta') {
        const key = (attribs['name'] ?? '').trim().toLowerCase();
        const equiv = (attribs['http-equiv'] ?? '').trim().toLowerCase();
        const content = attribs['content'];
        if (content === undefined) return;
        if (equiv === 'content-language') signals.meta_content_language = languageList(content);
        // Open Graph's own attribute is `property`; some templates write `name`.
        const property = (attribs['property'] ?? key).trim().toLowerCase();
        if (property === 'og:locale' && signals.og_locale === null)
          signals.og_locale = normaliseLanguageTag(content);
        if (ROBOTS_META.test(key))
          for (const d of content.toLowerCase().split(/[\s,]+/)) if (d !== '') directives.add(d);
        if (key === 'tdm-reservation' && signals.tdm_reservation === null)
          signals.tdm_reservation = content.trim();
        if (key === 'tdm-policy' && signals.tdm_policy === null) signals.tdm_policy = content.trim() || null;
      }
      if (name === 'link' && attribs['hreflang'] !== undefined) {
        const rel = (attribs['rel'] ?? '').toLowerCase().split(/\s+/);
        const tag = normaliseLanguageTag(attribs['hreflang']);
        if (rel.includes('alternate') && tag !== null) hreflang.add(tag);
      }
    },
  };
  const result = (): PageSignals => ({
    ...signals,
    hreflang: [...hreflang],
    robots_directives: [...directives],
  });
  return { handler, result };
}
