// Recognises an anti-bot challenge or block page in one HTTP answer, by the signatures of
// challenge-signatures.ts, and says which signature and which marker matched (a liveness result's evidence).
import {
  CHALLENGE_SIGNATURES,
  CHALLENGE_STATUSES,
  type ChallengeMarker,
  type ChallengeSignature,
} from './challenge-signatures.js';
import { cutText, readableText } from './page-text.js';

export interface ChallengeMatch {
  signature: string;
  vendor: string;
  page: ChallengeSignature['page'];
  /** What matched, for a person: `header cf-mitigated: challenge`, `title "Just a moment..."`, `body "…"`. */
  matched: string;
  strength: ChallengeMarker['strength'];
}

/** Interstitials are small and put their markers early; a 5 MB homepage is not scanned whole. */
const SCANNED_BYTES = 256 * 1024;
const SHOWN_CHARS = 100;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return whole;
      // A surrogate is no character on its own: HTML reads it as U+FFFD, and a lone one is not valid Unicode.
      return code >= 0xd800 && code <= 0xdfff ? '\uFFFD' : String.fromCodePoint(code);
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The first <title> of a page, entity-decoded and with its whitespace collapsed; null when there is none. */
export function pageTitle(html: string): string | null {
  const found = /<title[^>]*>([\s\S]{0,2000}?)<\/title\s*>/i.exec(html);
  if (!found) return null;
  return readableText(decodeEntities(found[1]!), Number.POSITIVE_INFINITY) ?? '';
}

/** What matched, as it goes into a liveness result's message: stored text, so no NUL and no cut surrogate. */
function shown(text: string): string {
  const flat = readableText(text, Number.POSITIVE_INFINITY) ?? '';
  return flat.length > SHOWN_CHARS ? `${cutText(flat, SHOWN_CHARS)}…` : flat;
}

interface Page {
  status: number;
  headers: Record<string, string>;
  title: string | null;
  body: string;
}

/** The marker's description when it holds for this page, else null. */
function test(marker: ChallengeMarker, page: Page): string | null {
  if (marker.strength === 'weak' && !(marker.statuses ?? CHALLENGE_STATUSES).includes(page.status))
    return null;
  switch (marker.where) {
    case 'header': {
      const name = marker.header ?? '';
      const value = page.headers[name];
      if (value === undefined) return null;
      const hit = marker.pattern.exec(value);
      // A cookie header holds every cookie: show the one that matched, not the first.
      if (!hit) return null;
      const from = name === 'set-cookie' ? value.slice(hit.index).replace(/^[,;\s]+/, '') : value;
      return `header ${name}: ${shown(from)}`;
    }
    case 'title':
      return page.title !== null && marker.pattern.test(page.title) ? `title "${shown(page.title)}"` : null;
    case 'body': {
      const hit = marker.pattern.exec(page.body);
      return hit ? `body "${shown(hit[0])}"` : null;
    }
  }
}

/**
 * The challenge or block page this answer is, or null. Strong markers of every signature are tried first, then
 * weak ones (which count only on a bot wall's statuses): a page is named by the most certain thing it carries.
 */
export function recogniseChallenge(
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  signatures: readonly ChallengeSignature[] = CHALLENGE_SIGNATURES,
): ChallengeMatch | null {
  const text = body.subarray(0, SCANNED_BYTES).toString('utf8');
  const page: Page = { status, headers, title: pageTitle(text), body: text };
  for (const strength of ['strong', 'weak'] as const) {
    for (const signature of signatures) {
      for (const marker of signature.markers) {
        if (marker.strength !== strength) continue;
        const matched = test(marker, page);
        if (matched !== null) {
          return {
            signature: signature.id,
            vendor: signature.vendor,
            page: signature.page,
            matched,
            strength,
          };
        }
      }
    }
  }
  return null;
}
