// Registrable domains (Public Suffix List, ICANN section), authority classes and the domain_id / seed_id
// identifiers of DESIGN §2. The authority table is documented in docs/identifiers.md.
import { parse } from 'tldts';
import { isCountryCode } from './countries.js';

export const AUTHORITIES = ['gov', 'edu', 'mil', 'int', 'ngo', 'com', 'other'] as const;
export type Authority = (typeof AUTHORITIES)[number];

export const SOURCE_TYPES = ['government', 'organization', 'ngo', 'media', 'company', 'other'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * Second-level suffix labels that mark an authority: gov.sg, go.jp, gob.mx, gouv.fr → gov; ac.uk → edu;
 * or.jp → ngo; co.uk → com. They count only below a country code: `.ac` and `.ne` are countries.
 */
const SECOND_LEVEL_LABELS: ReadonlyArray<readonly [Authority, ReadonlySet<string>]> = [
  ['gov', new Set(['gov', 'go', 'gob', 'gouv', 'govt', 'gv', 'gub', 'government', 'admin', 'gc'])],
  ['mil', new Set(['mil'])],
  ['edu', new Set(['edu', 'ac', 'sch', 'univ', 'uni'])],
  ['int', new Set(['int'])],
  ['ngo', new Set(['org', 'or', 'ngo', 'ong', 'asso', 'assn'])],
  ['com', new Set(['com', 'co', 'biz', 'ltd', 'plc', 'inc', 'net', 'ne', 'firm'])],
];

/** Generic top-level domains that mark an authority on their own (.gov, .edu, .org…). */
const TOP_LEVEL: Readonly<Record<string, Authority>> = {
  gov: 'gov',
  mil: 'mil',
  edu: 'edu',
  int: 'int',
  org: 'ngo',
  ngo: 'ngo',
  ong: 'ngo',
  com: 'com',
  net: 'com',
  biz: 'com',
};

/** Whole suffixes whose label is ambiguous elsewhere: mi.th is the Thai military, mi.it is Milan. */
const WHOLE_SUFFIXES: Readonly<Record<string, Authority>> = { 'mi.th': 'mil' };

const SOURCE_TYPE_OF_AUTHORITY: Record<Authority, SourceType> = {
  gov: 'government',
  mil: 'government',
  int: 'organization',
  edu: 'organization',
  ngo: 'ngo',
  com: 'company',
  other: 'other',
};

export type DomainResult =
  | { ok: true; host: string; registrableDomain: string; publicSuffix: string; authority: Authority }
  | { ok: false; reason: string };

/** `host` must already be lowercase ASCII (punycode), as the WHATWG URL parser gives it. */
export function classifyHost(host: string): DomainResult {
  const bare = host.endsWith('.') ? host.slice(0, -1) : host;
  if (bare === 'localhost' || bare.endsWith('.localhost'))
    return { ok: false, reason: 'localhost has no registrable domain' };
  const parsed = parse(bare, { allowPrivateDomains: false });
  if (parsed.isIp) return { ok: false, reason: 'an IP address has no registrable domain' };
  if (!parsed.domain || !parsed.publicSuffix) {
    return { ok: false, reason: `${bare} is a public suffix or has no registrable domain` };
  }
  return {
    ok: true,
    host: bare,
    registrableDomain: parsed.domain,
    publicSuffix: parsed.publicSuffix,
    authority: authorityOfSuffix(parsed.publicSuffix),
  };
}

/** The most specific suffix label that names an authority decides it; the table is in docs/identifiers.md. */
export function authorityOfSuffix(publicSuffix: string): Authority {
  const suffix = publicSuffix.toLowerCase();
  const whole = WHOLE_SUFFIXES[suffix];
  if (whole) return whole;
  const labels = suffix.split('.');
  const top = labels[labels.length - 1] ?? '';
  for (const label of labels.slice(0, -1)) {
    for (const [authority, names] of SECOND_LEVEL_LABELS) {
      if (names.has(label)) return authority;
    }
  }
  return TOP_LEVEL[top] ?? 'other';
}

export function sourceTypeOf(authority: Authority): SourceType {
  return SOURCE_TYPE_OF_AUTHORITY[authority];
}

export function domainIdOf(authority: Authority, country: string, registrableDomain: string): string {
  return `${authority}:${country}:${registrableDomain}`;
}

const DOMAIN_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN_ID_PATTERN = new RegExp(
  `^(${AUTHORITIES.join('|')}):([a-z]{2}|intl):((?:${DOMAIN_LABEL}\\.)+${DOMAIN_LABEL})$`,
);

export interface DomainId {
  authority: Authority;
  country: string;
  registrableDomain: string;
}

export function parseDomainId(value: string): DomainId | null {
  const match = DOMAIN_ID_PATTERN.exec(value.trim().toLowerCase());
  if (!match || !isCountryCode(match[2]!)) return null;
  return { authority: match[1] as Authority, country: match[2]!, registrableDomain: match[3]! };
}

export function seedIdOf(domainId: string, contentType: string): string {
  return `${domainId}::${contentType}`;
}

/** Parses a seed id and returns its canonical (trimmed, lowercase) parts. */
export function parseSeedId(value: string): { domainId: string; contentType: string } | null {
  const text = value.trim().toLowerCase();
  const at = text.lastIndexOf('::');
  if (at < 0) return null;
  const id = parseDomainId(text.slice(0, at));
  const contentType = text.slice(at + 2);
  if (!id || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(contentType)) return null;
  return { domainId: domainIdOf(id.authority, id.country, id.registrableDomain), contentType };
}
