// Which countries speak a language, from CLDR (generated into language-countries.json by
// scripts/generate-language-countries.mjs; the CLDR version is in the file's `source`). Read by country-guess.ts.
import table from './language-countries.json' with { type: 'json' };

export interface LanguageCountries {
  /** The one country the language points to on its own (ja → jp), or null when several share it (en, es, de…). */
  dominant: string | null;
  /** CLDR's likely region for the bare language (en → us): what a CMS writes when nobody chose a region. */
  likely_region: string | null;
  /** Countries with their share of the language's GDP-weighted speakers, largest first. */
  countries: Array<[string, number]>;
}

/** The CLDR release the table was generated from. */
export const LANGUAGE_COUNTRIES_SOURCE: string = table.source;

const LANGUAGES = table.languages as unknown as Record<string, LanguageCountries>;

/** A language's countries by its primary subtag (`pt-br` → `pt`); null for a language the table lacks. */
export function countriesOfLanguage(code: string): LanguageCountries | null {
  const primary = code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return Object.hasOwn(LANGUAGES, primary) ? LANGUAGES[primary]! : null;
}
