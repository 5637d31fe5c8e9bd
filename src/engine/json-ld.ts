// JSON-LD blocks read as data: the schema.org types they declare (NewsArticle, Recipe, Product…), the publishers
// they name and the first publication date. Never evaluated; malformed JSON is skipped; the walk is bounded.

export interface JsonLdFacts {
  /** schema.org type names without their vocabulary prefix, in order of appearance, once each. */
  types: string[];
  /** publisher.name (and the name of an organisation typed NewsMediaOrganization), once each. */
  publishers: string[];
  /** The first datePublished met. */
  datePublished: string | null;
  /** Names of author objects or strings. */
  authors: string[];
  /** Every datePublished, dateModified and uploadDate met (the time zone of a newsroom's clock says where it is). */
  dates: string[];
  /** addressCountry of any address (a publisher's PostalAddress): a code or a name, as written. */
  addressCountries: string[];
  /** `telephone` of any node (an organisation or its ContactPoint), as written: its calling code names a country. */
  telephones: string[];
  /** addressLocality and addressRegion of any address, as written (Dallas, Comunidad de Madrid). */
  addressPlaces: string[];
}

/** Nodes visited per page: enough for a @graph of a few hundred items, not for a hostile megabyte of nesting. */
const MAX_NODES = 5000;
const MAX_DEPTH = 16;
const MAX_VALUES = 50;
/** A JSON-LD block longer than this is skipped: no real page needs a megabyte of structured data. */
export const MAX_JSON_LD_CHARS = 1_000_000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters JSON forbids raw in a string are the point
const CONTROL_CHARACTERS = /[\u0000-\u001f]/g;

export function emptyJsonLdFacts(): JsonLdFacts {
  return {
    types: [],
    publishers: [],
    datePublished: null,
    authors: [],
    dates: [],
    addressCountries: [],
    telephones: [],
    addressPlaces: [],
  };
}

/** `http://schema.org/NewsArticle`, `schema:NewsArticle` → `NewsArticle`. */
export function schemaTypeName(value: string): string {
  const trimmed = value.trim();
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf(':'), trimmed.lastIndexOf('#'));
  return trimmed.slice(cut + 1).slice(0, 80);
}

function addOnce(list: string[], value: unknown): void {
  if (typeof value !== 'string') return;
  const text = value.replace(/\s+/g, ' ').trim().slice(0, 120);
  if (text !== '' && list.length < MAX_VALUES && !list.includes(text)) list.push(text);
}

function nameOf(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return nameOf(value[0]);
  if (value !== null && typeof value === 'object') return (value as Record<string, unknown>)['name'];
  return undefined;
}

/** Adds what one <script type="application/ld+json"> block declares to `facts`; bad JSON adds nothing. */
export function readJsonLdBlock(text: string, facts: JsonLdFacts): void {
  if (text.length > MAX_JSON_LD_CHARS) return;
  // Some CMSs wrap the block in an HTML comment or CDATA; JSON.parse would refuse the whole block.
  const json = text.replace(/^\s*(<!--|<!\[CDATA\[)/, '').replace(/(-->|\]\]>)\s*$/, '');
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    // Others write a text field's line breaks and tabs into the string raw (a recipe's ingredients pasted in), which
    // JSON forbids and search engines' readers take anyway. Outside a string a control character is whitespace or an
    // error either way, so as spaces they change nothing else. Only a block that failed pays for the copy.
    try {
      data = JSON.parse(json.replace(CONTROL_CHARACTERS, ' '));
    } catch {
      return;
    }
  }
  let visited = 0;
  const visit = (node: unknown, depth: number): void => {
    if (visited >= MAX_NODES || depth > MAX_DEPTH || node === null || typeof node !== 'object') return;
    visited += 1;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const declared = record['@type'];
    const types = (Array.isArray(declared) ? declared : [declared]).filter(
      (t): t is string => typeof t === 'string',
    );
    const names = types.map(schemaTypeName);
    // Google's paywall markup types the publication ["CreativeWork", "Product"]: a subscription, not a shop item.
    const paywall = names.includes('CreativeWork');
    for (const name of names)
      if (!(paywall && (name === 'Product' || name === 'Offer'))) addOnce(facts.types, name);
    if (names.includes('NewsMediaOrganization')) addOnce(facts.publishers, record['name']);
    if (record['publisher'] !== undefined) addOnce(facts.publishers, nameOf(record['publisher']));
    if (facts.datePublished === null && typeof record['datePublished'] === 'string')
      facts.datePublished = record['datePublished'].trim().slice(0, 64) || null;
    for (const key of ['datePublished', 'dateModified', 'uploadDate'])
      if (facts.dates.length < 20) addOnce(facts.dates, record[key]);
    const country = record['addressCountry'];
    addOnce(facts.addressCountries, nameOf(country) ?? (country as Record<string, unknown> | null)?.['@id']);
    if (facts.telephones.length < 10) addOnce(facts.telephones, record['telephone']);
    if (facts.addressPlaces.length < 10)
      for (const key of ['addressLocality', 'addressRegion']) addOnce(facts.addressPlaces, record[key]);
    const author = record['author'];
    for (const one of Array.isArray(author) ? author.slice(0, 10) : [author])
      addOnce(facts.authors, nameOf(one));
    for (const [key, value] of Object.entries(record)) {
      // Text fields cannot hold nodes; skipping them saves the walk on long articleBody strings.
      if (key === '@context' || typeof value !== 'object') continue;
      visit(value, depth + 1);
    }
  };
  visit(data, 0);
}
