// Registrable domains (the whole Public Suffix List, ICANN and private sections), authority classes and the
// domain_id / seed_id identifiers of docs/design.md §2. The authority table is documented in docs/identifiers.md.
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import shippedOverrides from './authority-overrides.json' with { type: 'json' };
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

/**
 * Whole suffixes whose label is ambiguous elsewhere (mi.th is the Thai military, mi.it is Milan) or names no
 * authority by itself (nhs.uk and police.uk are public bodies).
 */
const WHOLE_SUFFIXES: Readonly<Record<string, Authority>> = {
  'mi.th': 'mil',
  'nhs.uk': 'gov',
  'police.uk': 'gov',
};

const SOURCE_TYPE_OF_AUTHORITY: Record<Authority, SourceType> = {
  gov: 'government',
  mil: 'government',
  int: 'organization',
  edu: 'organization',
  ngo: 'ngo',
  com: 'company',
  other: 'other',
};

/** What an override says about a registrable domain; `country` names whose institution it is. */
export interface AuthorityOverride {
  authority: Authority;
  country?: string;
  note?: string;
}

/** Registrable domain (lowercase ASCII) → override. Built in the composition root; see authority-overrides.ts. */
export type AuthorityOverrides = ReadonlyMap<string, AuthorityOverride>;

/** The table that ships with Seedbed (src/domain/authority-overrides.json), checked by its unit test. */
export const SHIPPED_AUTHORITY_OVERRIDES: AuthorityOverrides = new Map(
  Object.entries(shippedOverrides.domains as Record<string, AuthorityOverride>),
);

export type DomainResult =
  | {
      ok: true;
      host: string;
      registrableDomain: string;
      /** The suffix of the whole list: `blogspot.com` for myblog.blogspot.com. */
      publicSuffix: string;
      /** The suffix of the ICANN section, which the authority comes from: `com` for myblog.blogspot.com. */
      icannSuffix: string;
      authority: Authority;
    }
  | { ok: false; reason: string };

const IP_REASON = 'an IP address has no registrable domain';

/**
 * A host's registrable domain and authority. Any case and IDN are accepted (the result is lowercase ASCII);
 * one trailing dot is dropped. A public suffix, an IP, `localhost` and a name with an empty label have none.
 * The authority is the override of the registrable domain, else of the ICANN-section registrable domain
 * (`gov.nl` for `x.gov.nl`), else what the ICANN suffix's labels say.
 */
export function classifyHost(
  host: string,
  overrides: AuthorityOverrides = SHIPPED_AUTHORITY_OVERRIDES,
): DomainResult {
  const ascii = asciiHost(host);
  if (!ascii.ok) return ascii;
  const bare = ascii.host;
  const whole = parse(bare, { allowPrivateDomains: true, extractHostname: false });
  if (whole.isIp) return { ok: false, reason: IP_REASON };
  if (!whole.domain || !whole.publicSuffix) {
    return { ok: false, reason: `${bare} is a public suffix or has no registrable domain` };
  }
  const icann = parse(bare, { allowPrivateDomains: false, extractHostname: false });
  const icannSuffix = icann.publicSuffix ?? whole.publicSuffix;
  const override =
    overrides.get(whole.domain) ?? (icann.domain === null ? undefined : overrides.get(icann.domain));
  return {
    ok: true,
    host: bare,
    registrableDomain: whole.domain,
    publicSuffix: whole.publicSuffix,
    icannSuffix,
    authority: override?.authority ?? authorityOfSuffix(icannSuffix),
  };
}

/** The registrable domain of a host (lowercase ASCII), or null when it has none. */
export function registrableDomainOf(host: string | null): string | null {
  if (host === null) return null;
  const result = classifyHost(host, new Map());
  return result.ok ? result.registrableDomain : null;
}

/**
 * The spelling an override key is stored under (lowercase ASCII), when the name is a registrable domain of
 * the whole list (`bund.de`) or of its ICANN section (`gov.nl`, a private-section suffix); else null.
 */
export function overrideKeyOf(name: string): string | null {
  const ascii = asciiHost(name.trim());
  if (!ascii.ok) return null;
  const options = { extractHostname: false } as const;
  const whole = parse(ascii.host, { ...options, allowPrivateDomains: true });
  const icann = parse(ascii.host, { ...options, allowPrivateDomains: false });
  return whole.domain === ascii.host || icann.domain === ascii.host ? ascii.host : null;
}

function asciiHost(host: string): { ok: true; host: string } | { ok: false; reason: string } {
  const lower = (host.endsWith('.') ? host.slice(0, -1) : host).toLowerCase();
  // Only an IPv6 literal has a colon (domainToASCII refuses it); a host:port is not a host.
  if (lower.startsWith('[') || lower.includes(':')) {
    return parse(lower, { extractHostname: false }).isIp
      ? { ok: false, reason: IP_REASON }
      : { ok: false, reason: `${host} is not a valid host name` };
  }
  // WHATWG domain-to-ASCII: lower-cases, maps IDN to punycode, and gives '' for a name it cannot encode.
  const ascii = domainToASCII(lower);
  if (ascii === '') return { ok: false, reason: `${host} is not a valid host name` };
  if (ascii === 'localhost' || ascii.endsWith('.localhost'))
    return { ok: false, reason: 'localhost has no registrable domain' };
  if (ascii.split('.').includes('')) return { ok: false, reason: `${host} has an empty label` };
  return { ok: true, host: ascii };
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

/** A seed id in its canonical spelling (any case, surrounding space ignored); as given when it is not one. */
export function canonicalSeedId(value: string): string {
  const parsed = parseSeedId(value);
  return parsed ? seedIdOf(parsed.domainId, parsed.contentType) : value;
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
