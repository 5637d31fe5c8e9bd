// A small gazetteer for the country guess: per language, the capitals, major cities and first-level regions of
// the countries that share it, in that language's spelling (place-names.json, written by hand and dated). A name
// listed under two countries — in any language — names neither, so it is dropped here, once.
import table from './place-names.json' with { type: 'json' };

/** The day the table was last written. */
export const PLACE_NAMES_AS_OF: string = table.as_of;

export interface PlaceOf {
  country: string;
  /** The place's first spelling in the table (Wien for Wiener), so spellings of one place count once. */
  place: string;
  /** The country's own name (España, Österreich) rather than one of its places. */
  countryName: boolean;
}

interface CountryEntry {
  country: string;
  places: string[];
}

const LANGUAGES = table.languages as unknown as Record<string, Record<string, CountryEntry>>;

function spellings(entry: string): string[] {
  return entry
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function buildTables(): { byLanguage: Map<string, Map<string, PlaceOf>>; allNames: Set<string> } {
  const countriesOfName = new Map<string, Set<string>>();
  const note = (name: string, country: string) => {
    const set = countriesOfName.get(name) ?? new Set<string>();
    set.add(country);
    countriesOfName.set(name, set);
  };
  for (const countries of Object.values(LANGUAGES))
    for (const [country, entry] of Object.entries(countries))
      for (const item of [entry.country, ...entry.places])
        for (const name of spellings(item)) note(name, country);
  const unambiguous = (name: string) => countriesOfName.get(name)!.size === 1;
  const byLanguage = new Map<string, Map<string, PlaceOf>>();
  const allNames = new Set<string>();
  for (const [language, countries] of Object.entries(LANGUAGES)) {
    const names = new Map<string, PlaceOf>();
    for (const [country, entry] of Object.entries(countries))
      for (const [index, item] of [entry.country, ...entry.places].entries()) {
        const all = spellings(item);
        for (const name of all.filter(unambiguous)) {
          names.set(name, { country, place: all[0]!, countryName: index === 0 });
          allNames.add(name);
        }
      }
    byLanguage.set(language, names);
  }
  return { byLanguage, allNames };
}

let tables: ReturnType<typeof buildTables> | null = null;
// Built on first use, not at import: most callers never read a page.
function builtTables(): ReturnType<typeof buildTables> {
  tables ??= buildTables();
  return tables;
}

/** The places a language's table knows, by spelling; null for a language the table lacks. */
export function placesOfLanguage(code: string): ReadonlyMap<string, PlaceOf> | null {
  const primary = (typeof code === 'string' ? code : '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return builtTables().byLanguage.get(primary) ?? null;
}

/** Every unambiguous spelling of every language (what a page reader looks for before the language is known). */
export function allPlaceNames(): ReadonlySet<string> {
  return builtTables().allNames;
}
