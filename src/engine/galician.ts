// Galician, Spanish or Portuguese? ELD (title-language.ts) knows Spanish and Portuguese and not Galician, so
// Galician running text comes out `es` or `pt` (about half each: Galician news sentences from Nós Diario and Praza,
// runs of 20). Galician shares most of its words with one or the other; what tells it apart are the words it writes
// its own way: unha, non, coa, dun, nun, tamén, xa, moi, máis, cando, hai, aínda, ata, iso, xente, traballo…
// against Spanish's y, el, los, una, muy, también, ya, cuando, hay and Portugal's e Brazil's não, uma, também, já,
// muito, quando, com, em, você. A text ELD reads as Spanish or Portuguese is counted for Galician's list and for that
// language's; Galician's count, at least MIN_GALICIAN and larger, makes it Galician, else ELD's reading stands.
// Left out on purpose: words Portuguese or Spanish also writes (agora, onde, isto, foi, ao, só, día, cidade, mais).
// docs/discovery.md ("Galician") has the figures.

import { countOwnWords } from './own-words.js';

// biome-ignore format: word lists read better packed
const GALICIAN: ReadonlySet<string> = new Set([
  'unha', 'unhas', 'non', 'coa', 'coas', 'cos', 'dun', 'dunha', 'nun', 'nunha', 'cun', 'cunha', 'tamén', 'xa', 'moi',
  'máis', 'ademais', 'cando', 'hai', 'aínda', 'ata', 'iso', 'xente', 'traballo', 'facer', 'teñen', 'entón', 'dende',
  'polo', 'pola', 'polos', 'polas', 'súa', 'seus', 'xeito', 'persoas', 'goberno', 'xeral', 'sempre', 'algúns',
  'moitos', 'moitas', 'moito', 'outra', 'outro', 'nosa', 'noso', 'eses', 'foron', 'están', 'tiña', 'fixo',
]);

// biome-ignore format: word lists read better packed
const SPANISH: ReadonlySet<string> = new Set([
  'y', 'el', 'los', 'las', 'del', 'una', 'muy', 'también', 'ya', 'cuando', 'hay', 'hasta', 'eso', 'entonces', 'gente',
  'trabajo', 'hacer', 'tienen', 'su', 'sus', 'manera', 'personas', 'gobierno', 'siempre', 'algunos', 'muchos', 'mucho',
  'otra', 'otro', 'nuestra', 'esos', 'fueron',
]);

// biome-ignore format: word lists read better packed
const PORTUGUESE: ReadonlySet<string> = new Set([
  'não', 'uma', 'umas', 'também', 'já', 'muito', 'muitos', 'muitas', 'quando', 'há', 'até', 'isso', 'então', 'pelo',
  'pela', 'pelos', 'pelas', 'num', 'numa', 'com', 'em', 'são', 'foram', 'eram', 'você', 'ainda', 'sua', 'seus',
  'gente', 'trabalho', 'fazer', 'têm', 'governo', 'pessoas', 'outra', 'outro', 'nossa', 'nosso', 'esses', 'estão',
]);

const NEIGHBOURS: Readonly<Record<string, ReadonlySet<string>>> = { es: SPANISH, pt: PORTUGUESE };

/** Fewer of Galician's own words than this say too little: a place name or a quoted phrase. */
export const MIN_GALICIAN = 3;

/** 'gl' when Galician's own words outnumber those of `neighbour` ('es' or 'pt') in the text, null otherwise. */
export function galicianOver(neighbour: string, text: string): 'gl' | null {
  const theirs = NEIGHBOURS[neighbour];
  if (theirs === undefined) return null;
  const counts = countOwnWords(text, GALICIAN, theirs);
  return counts.mine >= MIN_GALICIAN && counts.mine > counts.theirs ? 'gl' : null;
}

/** ELD's reading with Galician told from Spanish and Portuguese by the text's own words. */
export function withGalician(code: string, text: string): string {
  return code === 'es' || code === 'pt' ? (galicianOver(code, text) ?? code) : code;
}
