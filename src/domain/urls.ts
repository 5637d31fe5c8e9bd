// URL normalisation for research input: one canonical spelling per page, so duplicates can be found.
import {
  type Authority,
  type AuthorityOverrides,
  classifyHost,
  domainIdOf,
  parseDomainId,
  type SourceType,
  sourceTypeOf,
} from './domains.js';
import { safeDecodeURIComponent } from './percent-decode.js';
import { isTrackingParam } from './tracking-params.js';

export const MAX_URL_LENGTH = 2048;

export type NormalizeResult = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Scheme and host lower-cased, IDN to punycode, default port, fragment, credentials and tracking parameters
 * (tracking-params.ts) dropped, an empty path made "/", a trailing dot on the host removed. A URL written
 * without a scheme is taken as https.
 */
export function normalizeUrl(input: unknown): NormalizeResult {
  if (typeof input !== 'string') return { ok: false, reason: 'not a string' };
  const raw = input.trim();
  if (raw.length === 0) return { ok: false, reason: 'empty' };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `longer than ${MAX_URL_LENGTH} characters` };
  if (hasWhitespaceOrControl(raw)) return { ok: false, reason: 'contains whitespace or control characters' };
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^[^:/]+:\d+([/?#]|$)/.test(raw);
  let url: URL;
  try {
    url = new URL(hasScheme ? raw : `https://${raw.replace(/^\/\//, '')}`);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `unsupported scheme ${url.protocol.replace(/:$/, '')}` };
  }
  if (url.username || url.password) return { ok: false, reason: 'credentials in URLs are refused' };
  if (!url.hostname) return { ok: false, reason: 'no host' };
  url.hash = '';
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  // Assigned only when something was dropped: assigning would also turn a bare `?` into none.
  const search = withoutTracking(url.search);
  if (search !== url.search) url.search = search;
  // Percent-encoding can make the canonical form much longer than the input: the limit holds for both.
  if (url.href.length > MAX_URL_LENGTH)
    return { ok: false, reason: `longer than ${MAX_URL_LENGTH} characters once normalised` };
  return { ok: true, url };
}

export interface ClassifiedUrl {
  raw_url: string;
  normalized_url: string;
  host: string;
  registrable_domain: string;
  domain_id: string;
  authority: Authority;
  source_type: SourceType;
}

export type ClassifyResult = { ok: true; value: ClassifiedUrl } | { ok: false; reason: string };

/** `overrides` is the authority override table of the running service (the shipped one by default). */
export function classifyUrl(input: unknown, country: string, overrides?: AuthorityOverrides): ClassifyResult {
  const normalized = normalizeUrl(input);
  if (!normalized.ok) return normalized;
  const host = classifyHost(normalized.url.hostname, overrides);
  if (!host.ok) return host;
  return {
    ok: true,
    value: {
      raw_url: String(input),
      normalized_url: normalized.url.href,
      host: host.host,
      registrable_domain: host.registrableDomain,
      domain_id: domainIdOf(host.authority, country, host.registrableDomain),
      authority: host.authority,
      source_type: sourceTypeOf(host.authority),
    },
  };
}

/**
 * The query without its tracking parameters, the others kept as written and in order. It works on the raw
 * `name=value` pieces, not URLSearchParams, which would re-encode what it keeps (`%20` → `+`, `a` → `a=`).
 */
function withoutTracking(search: string): string {
  if (search.length <= 1) return search;
  const pieces = search.slice(1).split('&');
  const kept = pieces.filter((piece) => !isTrackingParam(paramName(piece)));
  if (kept.length === pieces.length) return search;
  const rest = kept.filter((piece) => piece !== '');
  return rest.length > 0 ? `?${rest.join('&')}` : '';
}

function paramName(piece: string): string {
  const eq = piece.indexOf('=');
  return safeDecodeURIComponent((eq < 0 ? piece : piece.slice(0, eq)).replaceAll('+', ' '));
}

function hasWhitespaceOrControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // C0, space, DEL and C1 (U+0080–U+009F, which \s does not cover), then any other Unicode space.
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/.test(text[i] as string)) return true;
  }
  return false;
}

export interface DomainTarget {
  host: string;
  registrable_domain: string;
  domain_id: string;
}

/**
 * A domain to check, given as a host, a URL or a domain id. IP literals, `localhost` and hosts without a
 * registrable domain are refused with the reason: a liveness check never goes to a private address.
 */
export function parseDomainTarget(
  input: unknown,
  country: string,
  overrides?: AuthorityOverrides,
): { ok: true; value: DomainTarget } | { ok: false; reason: string } {
  if (typeof input !== 'string') return { ok: false, reason: 'not a string' };
  const id = parseDomainId(input);
  if (id) {
    return {
      ok: true,
      value: {
        host: id.registrableDomain,
        registrable_domain: id.registrableDomain,
        domain_id: `${id.authority}:${id.country}:${id.registrableDomain}`,
      },
    };
  }
  const classified = classifyUrl(input, country, overrides);
  if (!classified.ok) return classified;
  const { host, registrable_domain, domain_id } = classified.value;
  return { ok: true, value: { host, registrable_domain, domain_id } };
}
