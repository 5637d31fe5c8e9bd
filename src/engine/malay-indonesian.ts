// Malay or Indonesian? ELD (title-language.ts) knows Malay and not Indonesian, so every Indonesian text it reads comes
// out `ms`: all 50 runs of 20 of Lingua's Indonesian test sentences did. The two standard languages share most of
// their words; what tells them apart are the words each spells or says its own way (Malaysia's bahawa, iaitu, kerana,
// wang, Ogos, Isnin against Indonesia's bahwa, yaitu, karena, uang, Agustus, Senin) and the borrowed nouns Malay ends
// in -iti where Indonesian ends in -itas (kualiti / kualitas). A text ELD reads as Malay is counted for both lists;
// the longer count wins, a tie leaves ELD's reading. docs/discovery.md ("Malay or Indonesian") has the figures.

// biome-ignore format: word lists read better packed
const INDONESIAN: ReadonlySet<string> = new Set([
  'bahwa', 'yaitu', 'karena', 'uang', 'mau', 'bisa', 'berbagai', 'kantor', 'mobil', 'olahraga', 'miliar', 'triliun',
  'polisi', 'presiden', 'nggak', 'enggak', 'banget', 'aja', 'senin', 'kamis', 'jumat', 'maret', 'juni', 'juli',
  'agustus', 'desember',
]);

// biome-ignore format: word lists read better packed
const MALAY: ReadonlySet<string> = new Set([
  'bahawa', 'iaitu', 'kerana', 'wang', 'mahu', 'pelbagai', 'selepas', 'pejabat', 'sukan', 'polis', 'bilion',
  'trilion', 'sahaja', 'menerusi', 'hospital', 'boleh', 'isnin', 'khamis', 'jumaat', 'ahad', 'mac', 'julai', 'ogos',
  'disember',
]);

/** A borrowed noun's ending is counted only on words this long: `kita`, `cita` and `pesta` end the same way. */
const MIN_SUFFIX_WORD = 7;

/** 'id' or 'ms' when one language's own words outnumber the other's in the text, null when neither does. */
export function malayOrIndonesian(text: string): 'id' | 'ms' | null {
  let indonesian = 0;
  let malay = 0;
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (INDONESIAN.has(word) || (word.length >= MIN_SUFFIX_WORD && word.endsWith('itas'))) indonesian += 1;
    else if (MALAY.has(word) || (word.length >= MIN_SUFFIX_WORD && word.endsWith('iti'))) malay += 1;
  }
  if (indonesian === malay) return null;
  return indonesian > malay ? 'id' : 'ms';
}

/** ELD's reading with Malay split from Indonesian by the text's own words. */
export function withIndonesian(code: string, text: string): string {
  return code === 'ms' ? (malayOrIndonesian(text) ?? code) : code;
}
