// The anti-bot challenge and block pages liveness recognises, as data: who serves them, where each marker is
// looked for (a header, the <title>, the body) and how much it proves. challenge.ts applies them.
//
// Markers were ported as data (never code) from public projects that recognise these pages; `sources` names
// them. wafw00f: EnableSecurity/wafw00f wafw00f/plugins/*.py (BSD-3-Clause). identYwaf: stamparm/identYwaf
// data.json (MIT). FlareSolverr: FlareSolverr/FlareSolverr src/flaresolverr_service.py (MIT). cloudscraper:
// VeNoMouS/cloudscraper cloudscraper/{cloudflare,cloudflare_v2,cloudflare_v3,turnstile}.py (MIT). Vendor
// documentation is named by its page.

import { escapeRegExp } from './literal-pattern.js';

/**
 * strong: only an interstitial or block page carries it, so it counts whatever the status (Cloudflare and
 * Incapsula serve some challenges with 200, AWS WAF with 202). weak: ordinary pages carry it too (an injected
 * bot-manager script, a CDN's header, a captcha widget on a login form), so it counts only on a status a bot
 * wall answers with — the marker's own `statuses`, else CHALLENGE_STATUSES.
 */
export type MarkerStrength = 'strong' | 'weak';

export interface ChallengeMarker {
  where: 'header' | 'title' | 'body';
  /** The header's name, lower case (where: 'header'). `set-cookie` holds every cookie, joined with ", ". */
  header?: string;
  /** Tested against the header's value, the page's <title> (decoded, trimmed) or the first 256 KiB of the body. */
  pattern: RegExp;
  strength: MarkerStrength;
  /** For a weak marker: the statuses it counts on, when not CHALLENGE_STATUSES. */
  statuses?: readonly number[];
}

export interface ChallengeSignature {
  /** Stable, written into a liveness result's evidence: `cloudflare-challenge`, `datadome`… */
  id: string;
  vendor: string;
  /** What the page is: a (JS or proof-of-work) challenge, a captcha, or a refusal with nothing to solve. */
  page: 'challenge' | 'captcha' | 'block';
  markers: readonly ChallengeMarker[];
  sources: readonly string[];
}

/** The statuses bot walls answer with: 401, 403, 405 (AWS WAF captcha), 428 (Akamai), 429 (Kasada), 503. */
export const CHALLENGE_STATUSES: readonly number[] = [401, 403, 405, 428, 429, 503];

const header = (name: string, pattern: RegExp, strength: MarkerStrength, statuses?: readonly number[]) =>
  ({ where: 'header', header: name, pattern, strength, ...(statuses ? { statuses } : {}) }) as const;
const title = (pattern: RegExp, strength: MarkerStrength) => ({ where: 'title', pattern, strength }) as const;
const body = (pattern: RegExp, strength: MarkerStrength, statuses?: readonly number[]) =>
  ({ where: 'body', pattern, strength, ...(statuses ? { statuses } : {}) }) as const;
/** A cookie the response sets, by name prefix. */
const cookie = (prefix: string) =>
  header('set-cookie', new RegExp(`(?:^|[,;]\\s*)${escapeRegExp(prefix)}`, 'i'), 'weak');

// Order matters only between markers of equal strength: every strong marker of every signature is tried
// before any weak one, so a page is named by the most certain thing it carries.
export const CHALLENGE_SIGNATURES: readonly ChallengeSignature[] = [
  {
    id: 'cloudflare-challenge',
    vendor: 'Cloudflare',
    page: 'challenge',
    markers: [
      // Cloudflare: "the header is set for all Challenge Page types"; challenge is its only value.
      header('cf-mitigated', /^challenge$/i, 'strong'),
      title(/^just a moment(?:\.\.\.|…)?$/i, 'strong'),
      body(/_cf_chl_opt\b/, 'strong'),
      body(/window\._cf_chl_ctx\s*=/, 'strong'),
      body(
        /\/cdn-cgi\/challenge-platform\/(?:h\/[a-z]\/)?orchestrate\/(?:jsch|managed|captcha|chl_page)\//,
        'strong',
      ),
      body(/__cf_chl_(?:f|rt|jschl|captcha)_tk(?:__)?=/, 'strong'),
      body(/\/cdn-cgi\/images\/trace\/(?:jsch|captcha|managed)\//, 'strong'),
      body(/id=["']?cf-challenge-running\b/, 'strong'),
      body(/\bcf-chl-/, 'weak'),
      // Bot management injects /cdn-cgi/challenge-platform/…/scripts/jsd/main.js into ordinary pages (and so
      // into an origin's own 503 maintenance page): that script alone proves nothing, even on an error.
      body(/\/cdn-cgi\/challenge-platform\/(?!(?:h\/[a-z]\/)?scripts\/jsd\/)/, 'weak'),
    ],
    sources: [
      'developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response',
      'FlareSolverr CHALLENGE_TITLES, CHALLENGE_SELECTORS',
      'cloudscraper is_IUAM_Challenge, is_V2_Challenge, is_V3_Challenge',
    ],
  },
  {
    id: 'cloudflare-block',
    vendor: 'Cloudflare',
    page: 'block',
    markers: [
      title(/^attention required! \| cloudflare$/i, 'strong'),
      // Error 1020 and friends: "Access denied | example.org used Cloudflare to restrict access".
      title(/used cloudflare to restrict access/i, 'strong'),
      // 1005–1012 (banned ASN, IP, country, browser signature), 1015 (rate limited), 1020 (firewall rule). Not
      // 1000–1004 or 1016: those are the site's own DNS and origin failures, not a refusal of us.
      body(/<span class="cf-error-code">(?:100[5-9]|101[0-2]|1015|1020)<\/span>/, 'strong'),
      body(/sorry, you have been blocked/i, 'weak'),
    ],
    sources: [
      'FlareSolverr ACCESS_DENIED_TITLES',
      'identYwaf cloudflare',
      'cloudscraper is_Firewall_Blocked',
    ],
  },
  {
    id: 'cloudflare-turnstile',
    vendor: 'Cloudflare',
    page: 'captcha',
    // The Turnstile widget also guards ordinary login and contact forms: only an error status makes it a wall.
    markers: [
      body(/challenges\.cloudflare\.com\/turnstile\//, 'weak'),
      body(/class=["'][^"']*\bcf-turnstile\b/, 'weak'),
      body(/name=["']cf-turnstile-response/, 'weak'),
    ],
    sources: ['cloudscraper is_Turnstile_Challenge', 'FlareSolverr TURNSTILE_SELECTORS'],
  },
  {
    id: 'datadome',
    vendor: 'DataDome',
    page: 'captcha',
    markers: [
      // The captcha and the device check are served from captcha-delivery.com; the everyday tag is not.
      body(/captcha-delivery\.com/i, 'strong'),
      header('x-datadome', /./, 'weak'),
      cookie('datadome='),
    ],
    sources: [
      'docs.capmonster.cloud DataDome task (403 with Set-Cookie: datadome=, geo.captcha-delivery.com)',
    ],
  },
  {
    id: 'perimeterx',
    vendor: 'HUMAN (PerimeterX)',
    page: 'captcha',
    markers: [
      // The element the press-and-hold captcha mounts in; the bare word also turns up in prose about it.
      body(/id=["']px-captcha["']/, 'strong'),
      body(/captcha\.px-cdn\.net/, 'strong'),
      body(/\bpx-captcha\b/, 'weak'),
      body(/perimeterx\.(?:com|net)\/whywasiblocked/i, 'strong'),
      body(/denied because we believe you are using automation tools/i, 'strong'),
      title(/^access to this page has been denied\.?$/i, 'weak'),
      body(/window\._pxAppId\b/, 'weak'),
      cookie('_pxhd='),
    ],
    sources: ['wafw00f perimeterx', 'identYwaf perimeterx'],
  },
  {
    id: 'akamai',
    vendor: 'Akamai',
    page: 'block',
    markers: [
      // The Bot Manager crypto challenge (SEC-CPT), usually a 428.
      body(/\/_sec\/cp_challenge\//, 'strong'),
      // "Access Denied … You don't have permission to access … Reference #18.1f2e3d4c.1700000000.5a6b7c8",
      // entity-encoded on the real page; a title of "Access Denied" alone is far too common to count.
      body(
        /you don(?:'|&#39;|&#x27;)t have permission to access[\s\S]{0,400}?reference(?:&#32;|\s)(?:&#35;|#)/i,
        'weak',
      ),
      body(/reference(?:&#32;|\s)(?:&#35;|#)\s*\d+(?:&#46;|\.)[0-9a-f]{6,}(?:&#46;|\.)\d{9,}/i, 'weak'),
      body(/errors\.edgesuite\.net/i, 'weak'),
    ],
    sources: ['identYwaf kona', 'wafw00f kona'],
  },
  {
    id: 'imperva-incapsula',
    vendor: 'Imperva (Incapsula)',
    page: 'challenge',
    markers: [
      // "Request unsuccessful. Incapsula incident ID: …", often inside a 200 whose iframe runs the check.
      body(/incapsula incident id/i, 'strong'),
      // Injected into every page the CDN serves.
      body(/\/_Incapsula_Resource\b/i, 'weak'),
      body(/powered by incapsula/i, 'weak'),
      header('x-iinfo', /./, 'weak'),
      cookie('incap_ses_'),
      cookie('visid_incap_'),
    ],
    sources: ['wafw00f incapsula', 'identYwaf incapsula'],
  },
  {
    id: 'imperva-bot-protection',
    vendor: 'Imperva (Distil Networks)',
    page: 'captcha',
    markers: [
      body(/distilCaptchaForm|distilCallbackGuard/, 'strong'),
      body(/cdn\.distilnetworks\.com\/images\/anomaly[-.]detected\.png/, 'strong'),
      title(/^pardon our interruption/i, 'weak'),
    ],
    sources: ['wafw00f distil', 'identYwaf distil'],
  },
  {
    id: 'sucuri',
    vendor: 'Sucuri',
    page: 'block',
    markers: [
      body(
        /access denied[\s\S]{0,16}sucuri website firewall|sucuri website firewall[\s\S]{0,32}access denied/i,
        'strong',
      ),
      body(/cdn\.sucuri\.net\/sucuri[-_]firewall[-_]block\.css/i, 'strong'),
      body(/cloudproxy@sucuri\.net/i, 'strong'),
      header('x-sucuri-block', /./, 'weak'),
      header('x-sucuri-id', /./, 'weak'),
    ],
    sources: ['wafw00f sucuri', 'identYwaf sucuri'],
  },
  {
    id: 'aws-waf',
    vendor: 'AWS WAF',
    page: 'challenge',
    markers: [
      // A challenge answers 202 and a captcha 405, each with this header.
      header('x-amzn-waf-action', /^(?:challenge|captcha)$/i, 'strong'),
      body(/(?:token|captcha)\.awswaf\.com\//i, 'weak', [202, 403, 405]),
      body(/request blocked\.[\s\S]{0,1000}generated by cloudfront/i, 'weak'),
    ],
    sources: [
      'docs.aws.amazon.com/waf/latest/developerguide/waf-captcha-and-challenge-actions.html',
      'identYwaf aws',
    ],
  },
  {
    id: 'ddos-guard',
    vendor: 'DDoS-Guard',
    page: 'challenge',
    markers: [
      title(/^ddos-guard$/i, 'strong'),
      body(/id=["']?link-ddg\b/, 'strong'),
      header('server', /^ddos-guard$/i, 'weak'),
      cookie('__ddg1'),
      cookie('__ddg2'),
      cookie('__ddgid'),
      cookie('__ddgmark'),
    ],
    sources: ['FlareSolverr CHALLENGE_TITLES and the #link-ddg selector', 'wafw00f ddosguard'],
  },
  {
    id: 'kasada',
    vendor: 'Kasada',
    page: 'challenge',
    // Kasada answers the first request with a 429 whose page loads its ips.js; its headers name it.
    markers: [
      header('x-kpsdk-ct', /./, 'weak', [429]),
      header('x-kpsdk-cd', /./, 'weak', [429]),
      body(/\bKPSDK\b/, 'weak', [429]),
      body(/149e9513-01fa-4fb0-aad4-566afd725d1b/, 'weak', [429]),
    ],
    sources: ['github.com/0x6a69616e/kpsdk-solver README (429 on first request, ips.js, KPSDK)'],
  },
  {
    id: 'f5-asm',
    vendor: 'F5 BIG-IP ASM',
    page: 'block',
    // Served with 200 by default, so the two phrases together must be enough.
    markers: [body(/the requested url was rejected\. please consult with your administrator/i, 'strong')],
    sources: ['wafw00f f5bigipasm', 'identYwaf asm'],
  },
  {
    id: 'vercel',
    vendor: 'Vercel',
    page: 'challenge',
    markers: [title(/^vercel security checkpoint$/i, 'strong'), body(/\/vercel\/security\//, 'weak')],
    sources: ['wafw00f vercel', 'identYwaf vercel'],
  },
  {
    id: 'anubis',
    vendor: 'Anubis (Techaro)',
    page: 'challenge',
    markers: [
      body(/<script id=["']anubis_challenge["']/, 'strong'),
      body(/\/\.within\.website\/x\/cmd\/anubis\//, 'strong'),
    ],
    sources: ['wafw00f anubis'],
  },
  {
    id: 'stackpath',
    vendor: 'StackPath',
    page: 'block',
    markers: [
      body(
        /(?:an action has|you performed an action that) triggered the service and blocked your request/i,
        'strong',
      ),
    ],
    sources: ['wafw00f stackpath', 'identYwaf stackpath'],
  },
  {
    id: 'wordfence',
    vendor: 'Wordfence',
    page: 'block',
    markers: [body(/(?:this response was )?generated by wordfence/i, 'strong')],
    sources: ['identYwaf wordfence'],
  },
  {
    id: 'generic-captcha',
    vendor: 'unknown',
    page: 'captcha',
    // A captcha or "are you human" page without a vendor's marker. Plenty of ordinary pages embed reCAPTCHA
    // or hCaptcha, or just say "captcha": none of these counts on a 200.
    markers: [
      body(
        /(?:www\.google\.com|www\.recaptcha\.net)\/recaptcha\/(?:api|enterprise)[./]|class=["'][^"']*\bg-recaptcha\b/i,
        'weak',
      ),
      body(/hcaptcha\.com\/1\/api\.js|class=["'][^"']*\bh-captcha\b/i, 'weak'),
      body(
        /verify (?:that )?you are (?:a )?human|are you a robot|checking your browser|unusual traffic from your (?:computer|network)/i,
        'weak',
      ),
      body(/captcha/i, 'weak'),
    ],
    sources: ['Seedbed (the generic markers of its first challenge check)'],
  },
];
