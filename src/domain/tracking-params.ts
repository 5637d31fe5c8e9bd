// Tracking parameters that URL normalisation drops (docs/design.md §2), so `/politik/?utm_source=x` and `/politik/`
// are one source. Only names that are unambiguously analytics or ad-click tags: `ref`, `source`, `from`, `cid`
// and the like select content on real sites and are kept. The list is documented in docs/identifiers.md.

/** Dropped when the lower-cased name starts with one of these. */
export const TRACKING_PARAM_PREFIXES: readonly string[] = [
  'utm_', // Google Analytics / Urchin campaign tags (utm_source, utm_medium, utm_campaign, utm_term, …)
  'mtm_', // Matomo campaign tags
  'hsa_', // HubSpot ads
];

/** Dropped when the lower-cased name is one of these. */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // Google Ads, DoubleClick, Google Analytics linker, Merchant Center
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'gad_source',
  'gad_campaignid',
  '_ga',
  '_gl',
  'srsltid',
  // Meta / Facebook, Instagram
  'fbclid',
  'igshid',
  'igsh',
  // Microsoft Advertising
  'msclkid',
  // X / Twitter, TikTok, LinkedIn
  'twclid',
  'ref_src',
  'ttclid',
  'li_fat_id',
  // Yandex
  'yclid',
  'ysclid',
  '_openstat',
  // Mailchimp, HubSpot, Marketo, Klaviyo, Vero, Omeda: e-mail and marketing tools
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  '_kx',
  'vero_id',
  'vero_conv',
  'oly_anon_id',
  'oly_enc_id',
  // Matomo / Piwik campaign names (the pk_ prefix itself is too generic)
  'pk_campaign',
  'pk_kwd',
  'pk_keyword',
  'pk_source',
  'pk_medium',
  'pk_content',
  'piwik_campaign',
  'piwik_kwd',
  // AT Internet / Piano (xtor), comScore (ns_*): common on European news sites' feed and share links
  'xtor',
  'at_medium',
  'at_campaign',
  'ns_mchannel',
  'ns_source',
  'ns_campaign',
  'ns_linkname',
  'ns_fee',
  // Affiliate and click ids
  'wickedid',
  'rb_clickid',
  'irclickid',
]);

/** Whether a query parameter name (as decoded, any case) is a tracking tag. */
export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMS.has(lower) || TRACKING_PARAM_PREFIXES.some((prefix) => lower.startsWith(prefix));
}
