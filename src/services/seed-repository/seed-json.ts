// A seed as JSON text straight from its row read as an array (SEED_COLUMNS): the text JSON.stringify(seedOfRow(row))
// gives, byte for byte and in the same key order, without parsing the JSON columns and serialising them again
// (that was most of an export's time). The JSON columns hold what JSON.stringify wrote (the repository writes them,
// nothing else does), and the parse of such a text serialises back to the same text; so they are copied as they
// are. Only the fields seedOfRow reshapes are rebuilt: `discovery` (read into its one shape), `policy` (with the
// AI policy fact inside) and `version` (a number).
import { parseJson } from '../common.js';
import { discoveryOfColumn, SEED_COLUMNS, type SeedColumn, type SeedValues } from './rows.js';

/** How a column becomes its field's JSON. */
type FieldKind =
  /** A string or null, serialised. */
  | { kind: 'text' }
  | { kind: 'number' }
  /** JSON text copied as it is; `empty` when the column holds nothing (seedOfRow's default). */
  | { kind: 'json'; empty: string }
  | { kind: 'policy' }
  | { kind: 'discovery' };

const TEXT = { kind: 'text' } as const;
const NULL_JSON = { kind: 'json', empty: 'null' } as const;
const LIST_JSON = { kind: 'json', empty: '[]' } as const;

/** Every field of the seed, in its key order, with the column it is read from (`ai` is read by `policy`). */
const FIELDS: ReadonlyArray<[Exclude<SeedColumn, 'ai'>, FieldKind]> = [
  ['seed_id', TEXT],
  ['domain_id', TEXT],
  ['registrable_domain', TEXT],
  ['country', TEXT],
  ['category', TEXT],
  ['content_type', TEXT],
  ['source_type', TEXT],
  ['status', TEXT],
  ['version', { kind: 'number' }],
  ['name', TEXT],
  ['entry_url', TEXT],
  ['fetch', { kind: 'json', empty: '{"type":"html","urls":[]}' }],
  ['schedule', TEXT],
  ['policy', { kind: 'policy' }],
  ['discovery', { kind: 'discovery' }],
  ['provenance', { kind: 'json', empty: '{}' }],
  ['created_at', TEXT],
  ['updated_at', TEXT],
  ['promoted_at', TEXT],
  ['feeds', LIST_JSON],
  ['sitemap', NULL_JSON],
  ['human_fields', LIST_JSON],
  ['freshness', NULL_JSON],
  ['languages', LIST_JSON],
  ['health', NULL_JSON],
  ['news', NULL_JSON],
  ['country_guess', NULL_JSON],
];

/** The fields with where each sits in the array and the text before its value (`{"seed_id":`, `,"name":`). */
const PLAN = FIELDS.map(([column, kind], i) => ({
  ...kind,
  at: SEED_COLUMNS.indexOf(column),
  prefix: `${i === 0 ? '{' : ','}${JSON.stringify(column)}:`,
}));
const AI_AT = SEED_COLUMNS.indexOf('ai');

/** The seed of the row as JSON (no newline). */
export function seedJsonOf(values: SeedValues): string {
  let json = '';
  for (const field of PLAN) {
    const value = values[field.at];
    json += field.prefix;
    if (field.kind === 'text') json += value === null || value === undefined ? 'null' : JSON.stringify(value);
    else if (field.kind === 'number') json += JSON.stringify(Number(value));
    else if (field.kind === 'json') json += isEmpty(value) ? field.empty : (value as string);
    else if (field.kind === 'policy') json += policyJson(value, values[AI_AT]);
    else json += JSON.stringify(discoveryOfColumn(value as string | null));
  }
  return `${json}}`;
}

/**
 * The policy with the AI fact as its last key, as seedOfRow's `{ ...policy, ai }` has it. A policy that already
 * has an `ai` key somewhere (the spread keeps its place) or is not an object takes the long way.
 */
function policyJson(policy: unknown, ai: unknown): string {
  const text = isEmpty(policy) ? '{}' : (policy as string);
  if (isEmpty(ai) || ai === 'null') return text;
  // `"ai":` can only be a key: inside a string value the quotes are escaped.
  if (!text.startsWith('{') || text.includes('"ai":')) {
    return JSON.stringify({ ...parseJson<object>(text, {}), ai: JSON.parse(ai as string) });
  }
  return text === '{}' ? `{"ai":${ai}}` : `${text.slice(0, -1)},"ai":${ai}}`;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}
