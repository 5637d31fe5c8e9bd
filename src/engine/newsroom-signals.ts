// What an article page shows of the newsroom behind it, beyond its markup: a byline crediting a news agency (only a
// newsroom buys wire copy), links to the pages a newsroom keeps for its readers (corrections, editorial standards,
// ethics, masthead, news tips, e-edition), a page whose story links point mostly to other sites (an aggregator's),
// and bylines that name no one (a CMS's default account signs a blog's
// posts, a newsroom names its writers). news-verdict.ts weighs them. Pure.
import { getDomain } from 'tldts';
import { articleUrlShape } from './article-urls.js';
import type { PageLink } from './page-facts.js';

/**
 * News agencies as bylines credit them. Case-sensitive: the acronyms are written in capitals, and a lower-case
 * "ap" or "dpa" inside a name is not a credit. Agencies that are also ordinary words or initials of people
 * (PA, TT, ANI) are left out.
 */
const AGENCIES =
  'Associated Press|AP|AAP|Reuters|AFP|Agence France-Presse|dpa|APA|KNA|epd|SDA|Keystone-SDA|ANP|NTB|Ritzau|STT|Lusa|Europa Press|EFE|ANSA|Kyodo|Jiji|Yonhap|Xinhua|PTI|IANS|Canadian Press|Press Association|PA Media|UPI|TASS|Interfax|Anadolu|Bernama|Antara';
const WIRE_CREDIT = new RegExp(`(?<!\\p{L})(?:${AGENCIES})(?!\\p{L})`, 'u');
/**
 * An agency credited in running text the way wire copy opens, in brackets after its dateline and before a dash:
 * "BERLIN (dpa) –", "PARIS (AFP) -", "(Reuters) -". The dash matters: "(AP)" alone is also Advanced Placement, and
 * "(APA)" a citation style. Only the bracket is matched (a pattern reaching back for the dateline's words was tried
 * at every character of the text: 0.45 ms a page); `wireDatelines` adds the words before it as evidence.
 */
const WIRE_BRACKET = new RegExp(`\\((?:${AGENCIES})\\)\\s*[-–—]`, 'gu');

/** Wire copy's openings in a text, each with up to 30 characters of its dateline before it, at most `max`. */
export function wireDatelines(text: string, max = 3): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(WIRE_BRACKET)) {
    const before = text.slice(Math.max(0, match.index - 30), match.index);
    const dateline = /\p{Lu}[\p{L}., ]*$/u.exec(before)?.[0] ?? '';
    const opening = `${dateline}${match[0]}`.trim();
    if (!found.includes(opening)) found.push(opening);
    if (found.length >= max) break;
  }
  return found;
}

/**
 * A staff reporter or desk editor credited by title in Chinese, Japanese or Korean text, as newsrooms sign their
 * stories there: "（记者宋晨）", "记者：梁子健", "〔記者巫其倫／台北報導〕", "新华社记者", "本报记者", "【责任编辑：严玉洁】",
 * "배윤경 기자 bykj@mk.co.kr", "[서울=뉴시스] 홍길동 기자 =". Only the forms of a credit: the bare word is also a press
 * conference (记者会, 記者会見) or a blog's "overseas reporter says" (海外記者「…」), and a Korean name before 기자 is
 * read only with the reporter's e-mail, an "=" or a bracket after it ("신청 기자 자료실" is a menu).
 */
const REPORTER_CREDIT = new RegExp(
  [
    // 责任编辑 (responsible editor): the line Chinese newsrooms end a story with.
    String.raw`(?:责任编辑|責任編輯)\s*[:：]\s*\p{Script=Han}{2,4}`,
    // A reporter named after a colon, in brackets, or before "／…報導" (Taiwan's dateline).
    String.raw`(?:记者|記者)\s*[:：]\s*\p{Script=Han}{2,4}`,
    String.raw`[（(〔【\[](?:记者|記者)\s*\p{Script=Han}{2,4}`,
    String.raw`(?:记者|記者)\s*\p{Script=Han}{2,4}\s*[／/]\s*\p{Script=Han}{0,4}(?:报道|報導|报导)`,
    // The agency's or the paper's own reporter.
    '(?:新华社|新華社|中新社|中央社|本报|本報|本台|本网|本網)(?:特约)?(?:记者|記者)',
    // A Korean reporter or correspondent with an e-mail, an "=" or a closing bracket after the title.
    String.raw`(?<![가-힣])[가-힣]{2,4} ?(?:기자|특파원)(?![가-힣])\s*(?:[\w.+-]+@[\w-]+\.|=|\])`,
  ].join('|'),
  'gu',
);

/** The titles REPORTER_CREDIT reads: a text with none of them is not searched (a whole-pattern scan costs 0.15 ms a page). */
const REPORTER_TITLES = ['记者', '記者', '责任编辑', '責任編輯', '기자', '특파원'];

/** Reporter and editor credits of a text (CJK newsrooms' bylines), once each, at most `max`. */
export function reporterCredits(text: string, max = 3): string[] {
  const found: string[] = [];
  if (!REPORTER_TITLES.some((title) => text.includes(title))) return found;
  for (const match of text.matchAll(REPORTER_CREDIT)) {
    const credit = match[0].replace(/\s+/g, ' ').trim();
    if (!found.includes(credit)) found.push(credit);
    if (found.length >= max) break;
  }
  return found;
}

/** The first byline crediting a news agency, with the agency; null when none does. */
export function wireCredit(bylines: readonly string[]): { byline: string; agency: string } | null {
  for (const byline of bylines.slice(0, 20)) {
    const found = typeof byline === 'string' ? WIRE_CREDIT.exec(byline) : null;
    if (found !== null) return { byline, agency: found[0] };
  }
  return null;
}

/**
 * Anchor texts (whole) of the pages a newsroom keeps for its readers. Words other bodies use for their own pages are
 * left out: "Newsroom" and "Press" (companies' and ministries' press releases), "Ethics" and "Standards" alone
 * (compliance pages, standards bodies), "Tips" alone (a shop's or a recipe site's advice), "Impressum" (every German
 * site's legal notice), an academic journal's "Editorial Board", a company's code of ethics, an editorial charter or
 * line (a blog writes one too: alphabetablog.com's "Charte éditoriale"), and words that also mean something else
 * ("toimitus" is a Finnish shop's delivery, "σύνταξη" a pension). In other languages: the editorial office
 * ("Redakcja", "Redacció", "Редакция"), the masthead ("Künye"), letters to the editor, the printed or digital edition
 * and the newspaper's archive ("Hemeroteca").
 */
const EDITORIAL_ANCHOR = new RegExp(
  `^(?:${[
    // English
    'corrections?',
    '(?:editorial|journalism|journalistic|ethics and|ethics &) standards',
    'standards (?:and|&) ethics',
    '(?:journalism|journalistic) ethics',
    'ethics policy',
    'editorial (?:policy|policies|guidelines|code|independence)',
    'masthead',
    '(?:send us a|send us|submit a|news) tips?',
    'letters to the editor',
    'e-?edition',
    'e-?paper',
    "today'?s paper",
    'print edition',
    // The editorial office, its team and its masthead
    'redaktion(?:en)?',
    'die redaktion',
    'rédaction',
    'la rédaction',
    'redacción',
    'la redacción',
    'redacció',
    'redação',
    'redacao',
    'redazione',
    'la redazione',
    'redactie',
    'de redactie',
    'redakcja',
    'redakce',
    'redakcia',
    'redakcija',
    'uredništvo',
    'szerkesztőség',
    'redaksjonen',
    'redaksi',
    'redaksiya',
    'редакция',
    'редакція',
    'редакција',
    'редакцията',
    'künye',
    'yazı işleri',
    // Letters to the editor
    'cartas al director',
    'cartes al director',
    'cartas dos leitores',
    'lettere al direttore',
    'leserbriefe',
    'courrier des lecteurs',
    'listy do redakcji',
    // The printed or digital edition and its archive
    'edición impresa',
    'edició impresa',
    'edição impressa',
    'edizione digitale',
    'edizione cartacea',
    'édition numérique',
    'journal numérique',
    'wydanie cyfrowe',
    'e-wydanie',
    'hemeroteca',
    // The same edition as more newspapers name it (2026-11-29, session 25: 23 news pages of the labelled sets carry
    // one of these, no other page; a magazine's e-paper is read as "e-Paper" above, on a recipe magazine's too)
    'digital edition',
    'print replica',
    'replica edition',
    'edición digital',
    'versión impresa',
    'digitale zeitung',
    'e-?zeitung',
    'edicola',
    'e-?avis',
    'e-?tidning',
    'e-?lehti',
    'näköislehti',
    'digitale krant',
    'e-?krant',
    '電子版',
    '紙面',
  ].join('|')})$`,
  'iu',
);

/** Internal links whose anchor names one of a newsroom's reader pages, once per anchor, at most `max`. */
export function editorialLinks(links: readonly PageLink[], max = 3): PageLink[] {
  const seen = new Set<string>();
  const found: PageLink[] = [];
  for (const link of links) {
    if (!link.internal) continue;
    const anchor = link.anchor.trim().toLowerCase();
    if (!EDITORIAL_ANCHOR.test(anchor) || seen.has(anchor)) continue;
    seen.add(anchor);
    found.push(link);
    if (found.length >= max) break;
  }
  return found;
}

/** A byline that names no writer: a CMS's default account (admin, administrator, webmaster). */
const PLACEHOLDER_BYLINE =
  /^(?:(?:by|posted by|von|par|por|oleh)\s+)?(?:admin|administrator|webmaster|site admin)$/i;

export function isPlaceholderByline(byline: string): boolean {
  return typeof byline === 'string' && PLACEHOLDER_BYLINE.test(byline.trim());
}

/** A byline's own prefix ("By", "Posted by", "Von"…), left out when the name is compared. */
const BYLINE_PREFIX = /^\s*(?:posted\s+)?(?:by|von|par|por|door|av|af|przez)\s+/iu;
/** Letters and digits only, lower case: "TÜV Rheinland" and "tüv-rheinland" compare equal. */
const lettersOf = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * A byline that names the site itself — its host, its title or its og:site_name ("Tetratech" on tetratech.com, "City
 * National Bank" in its own title, a university's name as its pages' author): an organisation signing its own pages
 * (a meta author, a JSON-LD author), not a writer. Names of fewer than four letters are not compared. Session 25: a
 * 2023 crawl of company homepages read news on such bylines.
 */
export function bylineNamesSite(
  byline: string,
  site: { url: string; title: string | null; og_site_name: string | null },
): boolean {
  if (typeof byline !== 'string') return false;
  const name = lettersOf(byline.replace(BYLINE_PREFIX, ''));
  if (name.length < 4) return false;
  let host = '';
  try {
    host = new URL(site.url).hostname;
  } catch {
    // An unreadable URL leaves the title and the site name to compare with.
  }
  return [host, site.title ?? '', site.og_site_name ?? ''].some((own) => lettersOf(own).includes(name));
}

/** An aggregator's page: story links to at least this many other sites… */
export const AGGREGATOR_MIN_SITES = 10;
/** …and at least this many times as many as to the site's own stories. A newsroom links mostly to itself. */
export const AGGREGATOR_RATIO = 2;

/** Other sites' article-shaped links on a page, by site, when they make it an aggregator's page; else null. */
export function aggregatorLinks(
  links: readonly PageLink[],
  ownArticleLinks: number,
): { sites: number; examples: string[] } | null {
  const bySite = new Map<string, string>();
  for (const link of links) {
    if (link.internal || articleUrlShape(link.url) === null) continue;
    let site: string | null;
    try {
      site = getDomain(new URL(link.url).hostname, { allowPrivateDomains: true });
    } catch {
      continue;
    }
    if (site !== null && !bySite.has(site)) bySite.set(site, link.url);
  }
  if (bySite.size < AGGREGATOR_MIN_SITES || bySite.size < AGGREGATOR_RATIO * ownArticleLinks) return null;
  return { sites: bySite.size, examples: [...bySite.values()].slice(0, 3) };
}

/** A catalogue's page: at least this many links whose text ends in an item count ("Работа в чужбина (94)")… */
export const CATALOGUE_MIN_COUNTED = 40;
/** …making at least this share of the page's links. A newsroom's month archive or tag box stays a minority. */
export const CATALOGUE_MIN_SHARE = 0.4;
const ITEM_COUNT = /\(\s*\d[\d\s.,]*\)$/u;

/**
 * A classifieds board's, a shop's or a directory's listing: most of the page's links are categories with the number of
 * ads, products or entries under each. Null when they are not.
 */
export function catalogueLinks(links: readonly PageLink[]): { counted: number; examples: string[] } | null {
  const counted = links.filter((link) => ITEM_COUNT.test(link.anchor));
  if (counted.length < CATALOGUE_MIN_COUNTED || counted.length < CATALOGUE_MIN_SHARE * links.length)
    return null;
  return { counted: counted.length, examples: counted.slice(0, 3).map((link) => link.anchor) };
}
