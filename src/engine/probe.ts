// `seedbed probe <domain>`: runs liveness and contract discovery for one domain and returns what its seed would
// be, as plain JSON-ready data. Nothing is stored.
import { type AuthorityOverrides, classifyHost, domainIdOf, parseDomainId } from '../domain/domains.js';
import { ValidationError } from '../domain/errors.js';
import type { Fetcher } from '../ports/fetcher.js';
import { type DomainMetadata, discoverContract, type SeedDraft } from './contract-discovery.js';
import type { LivenessResult } from './liveness.js';
import type { NetworkCanary } from './network-canary.js';
import type { SitemapLimits } from './sitemaps.js';

export interface ProbeOptions {
  /** ISO country or `intl`: the country part of the domain id and the metadata. */
  country?: string;
  /** A domain id the caller already holds; its registrable domain is the report's. */
  domainId?: string;
  /** The service's authority override table; the shipped one when absent. */
  authorityOverrides?: AuthorityOverrides;
  now?: () => Date;
  /** Checked before a failure is called dead (SEEDBED_NETWORK_CANARY); none: never. */
  canary?: NetworkCanary | null;
  /** Overrides of the sitemap budgets; a cut-short reading shows as `metadata.sitemap.truncated`. */
  sitemapLimits?: Partial<SitemapLimits>;
}

export interface ProbeReport {
  /** The host probed: its homepage is the entry, as a person who pasted `https://www.bbc.co.uk/news` expects. */
  domain: string;
  /** The host's registrable domain (Public Suffix List): what the seed is keyed by. */
  registrable_domain: string;
  domain_id: string;
  category: string;
  liveness: LivenessResult;
  metadata: DomainMetadata;
  draft: SeedDraft | null;
  reason: string | null;
  /** Sizes of the evidence files a contract run would store (the bytes themselves are left out). */
  evidence: { robots_txt_bytes: number | null; sitemap_xml_bytes: number | null };
}

/** Accepts `example.org`, `Example.org.` or a pasted URL such as `https://example.org/news`. */
export function hostOf(input: string): string {
  const text = input.trim();
  const host = text.includes('://') ? new URL(text).hostname : text.split('/')[0]!;
  return host.toLowerCase().replace(/\.$/, '');
}

/**
 * The probed host (lowercase ASCII), its registrable domain and domain id. A host without a registrable
 * domain, or a given domain id of another registrable domain, is refused with the reason.
 */
function identify(input: string, country: string, options: ProbeOptions) {
  const classified = classifyHost(hostOf(input), options.authorityOverrides);
  if (!classified.ok) throw ValidationError.field('domain', `${input}: ${classified.reason}`);
  const { host, registrableDomain } = classified;
  if (options.domainId === undefined) {
    return {
      host,
      registrableDomain,
      domainId: domainIdOf(classified.authority, country, registrableDomain),
    };
  }
  const id = parseDomainId(options.domainId);
  if (!id) throw ValidationError.field('domainId', `${options.domainId} is not a domain id`);
  if (id.registrableDomain !== registrableDomain) {
    throw ValidationError.field(
      'domainId',
      `${options.domainId} is not the domain id of ${registrableDomain}`,
    );
  }
  return { host, registrableDomain, domainId: domainIdOf(id.authority, id.country, id.registrableDomain) };
}

export async function probeDomain(
  fetcher: Fetcher,
  domain: string,
  category: string,
  options: ProbeOptions = {},
): Promise<ProbeReport> {
  const country = (options.country ?? 'intl').toLowerCase();
  const { host, registrableDomain, domainId } = identify(domain, country, options);
  const found = await discoverContract(
    fetcher,
    {
      domainId,
      registrableDomain,
      host,
      country,
      category,
      ...(options.sitemapLimits ? { sitemapLimits: options.sitemapLimits } : {}),
    },
    { now: options.now, canary: options.canary ?? null },
  );
  return {
    domain: host,
    registrable_domain: registrableDomain,
    domain_id: domainId,
    category,
    liveness: found.liveness,
    metadata: found.metadata,
    draft: found.draft,
    reason: found.reason,
    evidence: {
      robots_txt_bytes: found.evidence.robotsTxt?.length ?? null,
      sitemap_xml_bytes: found.evidence.sitemapXml?.length ?? null,
    },
  };
}
