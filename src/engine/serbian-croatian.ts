// Serbian or Croatian? ELD (title-language.ts) reads Serbian written in the Latin alphabet as Croatian: the two standard
// languages share nearly all their words (Serbian in Cyrillic is told by its letters, script-languages.ts). What tells
// them apart in running text is the reflex of old "ě" — Serbian's ekavian "vreme, deca, predsednik, sledeći" against
// Croatian's ijekavian "vrijeme, djeca, predsjednik, sljedeći" ("svet" itself is "holy" in both) — and words each
// standard has its own way where Bosnian sides with neither or with Croatia: Serbian's tokom, istorija, jun, jul,
// avgust; Croatian's tijekom, povijest, tisuća, tjedan, kruh, the months siječanj…prosinac. Words Bosnian shares with
// Serbian (ko, hiljada, opština, uslovi, fudbal, univerzitet, muzika, voz, januar, mart, maj) and names of places are
// left out: a Bosnian or a Croatian text about Belgrade must stay what it is. A text ELD reads as Croatian (or
// Bosnian) is counted for both lists; Serbian needs two of its words and more than Croatian's, anything else keeps
// ELD's reading. Bosnian and Montenegrin are ijekavian, so they keep it. docs/discovery.md ("Serbian or Croatian").

import { countOwnWords } from './own-words.js';

// biome-ignore format: word lists read better packed
const SERBIAN: ReadonlySet<string> = new Set([
  'vreme', 'deca', 'dece', 'deci', 'decu', 'svetski', 'svetske', 'svetskog', 'predsednik',
  'predsednika', 'predsedniku', 'predsednica', 'sledeći', 'sledeće', 'sledeću', 'sledećeg', 'sledećih', 'uvek', 'gde',
  'ovde', 'negde', 'mesto', 'mesta', 'mestu', 'mesec', 'meseca', 'mesecu', 'meseci', 'lepo', 'lepa', 'lepe', 'reč',
  'reči', 'reka', 'reke', 'primer', 'primera', 'predlog', 'predloga', 'pesma', 'pesme', 'pesmu', 'vest', 'vesti',
  'veruje', 'verovatno', 'bezbednost', 'bezbednosti', 'izveštaj', 'izveštaja', 'nedelja', 'nedelje', 'nedelju', 'hleb',
  'jun', 'juna', 'jul', 'jula', 'avgust', 'avgusta', 'pre', 'posle', 'ceo', 'celi', 'celo', 'cela', 'cele', 'deo',
  'dela', 'delu', 'delo', 'vek', 'veka', 'veku', 'beli', 'bela', 'belo', 'sever', 'severu', 'severno', 'istorija',
  'istorije', 'istoriji', 'ponovo', 'tokom', 'uspeh', 'uspeo', 'uspela', 'hteo', 'htela', 'želeo', 'želela', 'dete',
  'cena', 'cene', 'telo', 'tela', 'leto', 'leta', 'pesnik', 'sreda', 'naučnik', 'naučnici', 'vazduh', 'vazduhu',
]);

// biome-ignore format: word lists read better packed
const CROATIAN: ReadonlySet<string> = new Set([
  'vrijeme', 'djeca', 'djece', 'djeci', 'djecu', 'svijet', 'svijeta', 'svijetu', 'svjetski', 'svjetske', 'svjetskog',
  'predsjednik', 'predsjednika', 'predsjedniku', 'predsjednica', 'sljedeći', 'sljedeće', 'sljedeću', 'sljedećeg',
  'sljedećih', 'uvijek', 'gdje', 'ovdje', 'negdje', 'mjesto', 'mjesta', 'mjestu', 'mjesec', 'mjeseca', 'mjesecu',
  'mjeseci', 'lijepo', 'lijepa', 'lijepe', 'riječ', 'riječi', 'rijeka', 'rijeke', 'primjer', 'primjera', 'prijedlog',
  'prijedloga', 'pjesma', 'pjesme', 'pjesmu', 'vijest', 'vijesti', 'vjeruje', 'vjerojatno', 'izvješće', 'izvješća',
  'tisuća', 'tisuće', 'tjedan', 'tjedna', 'tjednu', 'sveučilište', 'sveučilišta', 'glazba', 'glazbe', 'kruh', 'vlak',
  'kazalište', 'kazališta', 'siječnja', 'veljače', 'ožujka', 'travnja', 'svibnja', 'lipnja', 'srpnja', 'kolovoza',
  'rujna', 'listopada', 'studenoga', 'studenog', 'prosinca', 'prije', 'poslije', 'cijeli', 'cijelo', 'cijela',
  'cijele', 'dio', 'dijela', 'dijelu', 'djelo', 'vijek', 'vijeka', 'vijeku', 'bijeli', 'bijela', 'bijelo', 'sjever',
  'sjeveru', 'sjeverno', 'povijest', 'povijesti', 'ponovno', 'tijekom', 'uspjeh', 'uspio', 'uspjela', 'htio',
  'htjela', 'želio', 'željela', 'dijete', 'cijena', 'cijene', 'tijelo', 'tijela', 'ljeto', 'ljeta', 'pjesnik',
  'srijeda', 'znanstvenik', 'znanstvenici', 'znanost', 'znanosti', 'obitelj', 'obitelji',
]);

/** Serbian words a text must hold, beyond outnumbering the Croatian ones, to be read as Serbian. */
const MIN_SERBIAN_WORDS = 2;

/** 'sr' or 'hr' when one standard's own words outnumber the other's in the text, null when neither does. */
export function serbianOrCroatian(text: string): 'sr' | 'hr' | null {
  const { mine: serbian, theirs: croatian } = countOwnWords(text, SERBIAN, CROATIAN);
  if (serbian === croatian) return null;
  // One word is not enough to call a text Serbian: a Croatian sentence may quote a name or a dialect word (Nedelja).
  return serbian > croatian ? (serbian >= MIN_SERBIAN_WORDS ? 'sr' : null) : 'hr';
}

/** ELD's reading with Serbian in the Latin alphabet split from Croatian (and Bosnian) by the text's own words. */
export function withSerbian(code: string, text: string): string {
  if (code !== 'hr' && code !== 'bs') return code;
  return serbianOrCroatian(text) === 'sr' ? 'sr' : code;
}
