// Registrable domains (Public Suffix List, ICANN section), authority classes and the domain_id / seed_id
// identifiers of DESIGN §2. The authority table is documented in docs/identifiers.md.
import { parse } from 'tldts';

export const AUTHORITIES = ['gov', 'edu', 'mil', 'int', 'ngo', 'com', 'other'] as const;
export type Authority = (typeof AUTHORITIES)[number];

export const SOURCE_TYPES = ['government', 'organization', 'ngo', 'media', 'company', 'other'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Suffix labels that mark an authority, e.g. gov.sg, go.jp, gob.mx, gouv.fr → gov; ac.uk → edu. */
const AUTHORITY_LABELS: ReadonlyArray<readonly [Authority, ReadonlySet<string>]> = [
  ['gov', new Set(['gov', 'go', 'gob', 'gouv', 'govt', 'gv', 'gub', 'government', 'admin', 'gc'])],
  ['mil', new Set(['mil', 'mi'])],
  ['edu', new Set(['edu', 'ac', 'sch', 'univ', 'uni'])],
  ['int', new Set(['int'])],
  ['ngo', new Set(['org', 'or', 'ngo', 'ong', 'asso', 'assn', 'ngo'])],
  ['com', new Set(['com', 'co', 'biz', 'ltd', 'plc', 'inc', 'net', 'ne', 'firm'])],
];

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

/** The first suffix label (most specific first) that names an authority decides it. */
export function authorityOfSuffix(publicSuffix: string): Authority {
  for (const label of publicSuffix.toLowerCase().split('.')) {
    for (const [authority, labels] of AUTHORITY_LABELS) {
      if (labels.has(label)) return authority;
    }
  }
  return 'other';
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
  if (!match) return null;
  return { authority: match[1] as Authority, country: match[2]!, registrableDomain: match[3]! };
}

export function seedIdOf(domainId: string, contentType: string): string {
  return `${domainId}::${contentType}`;
}

export function parseSeedId(value: string): { domainId: string; contentType: string } | null {
  const at = value.lastIndexOf('::');
  if (at < 0) return null;
  const domainId = value.slice(0, at);
  const contentType = value.slice(at + 2);
  if (!parseDomainId(domainId) || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(contentType)) return null;
  return { domainId, contentType };
}
