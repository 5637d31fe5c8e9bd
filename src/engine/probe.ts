// `seedbed probe <domain>`: runs liveness and contract discovery for one domain and returns what its seed would
// be, as plain JSON-ready data. Nothing is stored.
import type { Fetcher } from '../ports/fetcher.js';
import { type DomainMetadata, discoverContract, type SeedDraft } from './contract-discovery.js';
import type { LivenessResult } from './liveness.js';
import type { SitemapLimits } from './sitemaps.js';

export interface ProbeOptions {
  /** ISO country or `intl`; only written into the metadata. */
  country?: string;
  /** The real `{authority}:{country}:{domain}` id when the caller can derive it; else `other:{country}:{domain}`. */
  domainId?: string;
  now?: () => Date;
  /** Overrides of the sitemap budgets; a cut-short reading shows as `metadata.sitemap.truncated`. */
  sitemapLimits?: Partial<SitemapLimits>;
}

export interface ProbeReport {
  domain: string;
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

export async function probeDomain(
  fetcher: Fetcher,
  domain: string,
  category: string,
  options: ProbeOptions = {},
): Promise<ProbeReport> {
  const host = hostOf(domain);
  const country = (options.country ?? 'intl').toLowerCase();
  const found = await discoverContract(
    fetcher,
    {
      domainId: options.domainId ?? `other:${country}:${host}`,
      registrableDomain: host,
      country,
      category,
      sitemapLimits: options.sitemapLimits,
    },
    options.now,
  );
  return {
    domain: host,
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
