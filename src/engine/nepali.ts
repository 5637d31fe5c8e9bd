// Nepali, Hindi or Marathi? ELD (title-language.ts) knows Hindi and Marathi and not Nepali, so Nepali running text —
// written in the same Devanagari letters — comes out `hi` (reliably) or `mr`: every run of 20 lines of Nepali news
// prose did. The three languages share the letters and much learned vocabulary; what tells them apart are their
// grammar words: Nepali's copula and past (छ, छन्, थियो, थिए), its participles (भएको, गरेको, रहेको, हुने), its
// particles and pronouns (पनि, लागि, नै, यो, त्यो, उनले, सबै, धेरै, केही), against Hindi's है, था, में, से, और,
// नहीं, भी and Marathi's आहे, आणि, नाही, मध्ये, साठी. A text ELD reads as Hindi or Marathi is counted for Nepali's
// list and for that language's; Nepali's larger count makes it Nepali, a tie (or no such word) leaves ELD's reading.
// Left out on purpose: words the other language also writes (Hindi's को, ले, का, गए, हो; Marathi's तर "then").
// docs/discovery.md ("Nepali") has the figures.

// biome-ignore format: word lists read better packed
const NEPALI: ReadonlySet<string> = new Set([
  'छ', 'छन्', 'छैन', 'छौं', 'छु', 'थियो', 'थिए', 'थिइन्', 'भएको', 'भएका', 'भएकाले', 'गरेको', 'गरेका', 'गरेर', 'गरे',
  'गर्न', 'गर्ने', 'गर्दै', 'गरी', 'गरिएको', 'गरिने', 'हुने', 'हुन्छ', 'हुन्', 'हुनेछ', 'रहेको', 'रहेका', 'दिएको',
  'गएको', 'आएको', 'जनाएको', 'सक्ने', 'पनि', 'लागि', 'नै', 'र', 'यो', 'यस', 'त्यो', 'उनले', 'उनको', 'उनी', 'सबै',
  'धेरै', 'केही', 'कुनै', 'अहिले', 'पछि', 'भने', 'भन्ने', 'भन्दा', 'आफ्नो', 'आफ्ना', 'हाम्रो', 'जना', 'वटा', 'बाट',
  'मा', 'रुपैयाँ',
]);

// biome-ignore format: word lists read better packed
const HINDI: ReadonlySet<string> = new Set([
  'है', 'हैं', 'था', 'थी', 'थे', 'और', 'में', 'से', 'यह', 'वह', 'नहीं', 'किया', 'लिए', 'भी', 'ने', 'हुआ', 'हुई',
  'रहा', 'रही', 'अपने', 'अपनी', 'इस', 'उस', 'कहा', 'जाता', 'होता',
]);

// biome-ignore format: word lists read better packed
const MARATHI: ReadonlySet<string> = new Set([
  'आहे', 'आहेत', 'आणि', 'नाही', 'होते', 'होता', 'केले', 'केली', 'झाली', 'झाले', 'त्यांनी', 'त्यांच्या', 'हे',
  'करण्यात', 'म्हणून', 'पण', 'साठी', 'मध्ये',
]);

const NEIGHBOURS: Readonly<Record<string, ReadonlySet<string>>> = { hi: HINDI, mr: MARATHI };

/** A Devanagari word: its letters with their vowel signs and virama (marks), and the joiners written inside words. */
const WORD = /[\p{L}\p{M}\u200c\u200d]+/gu;

/** 'ne' when Nepali's own words outnumber those of `neighbour` ('hi' or 'mr') in the text, null otherwise. */
export function nepaliOver(neighbour: string, text: string): 'ne' | null {
  const theirs = NEIGHBOURS[neighbour];
  if (theirs === undefined) return null;
  let nepali = 0;
  let other = 0;
  for (const word of text.match(WORD) ?? []) {
    if (NEPALI.has(word)) nepali += 1;
    else if (theirs.has(word)) other += 1;
  }
  return nepali > other ? 'ne' : null;
}

/** ELD's reading with Nepali told from Hindi and Marathi by the text's own words. */
export function withNepali(code: string, text: string): string {
  return code === 'hi' || code === 'mr' ? (nepaliOver(code, text) ?? code) : code;
}
