// Recognises an anti-bot challenge or block page in one HTTP answer, by the signatures of
// challenge-signatures.ts, and says which signature and which marker matched (a liveness result's evidence).
import {
  CHALLENGE_SIGNATURES,
  CHALLENGE_STATUSES,
  type ChallengeMarker,
  type ChallengeSignature,
} from './challenge-signatures.js';
import { anyOfLiterals } from './literal-pattern.js';
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
  /** The body lower-cased, made when a case-blind marker's literal is first looked for. */
  lowered: string | null;
  /** Whether the body holds any strong marker's literal (case-blind ones in `lowered`), once looked for. */
  strongLiterals: { caseSensitive: boolean | null; caseBlind: boolean | null };
}

/** Shorter literals are not worth a search of their own: the pattern is run as it is. */
const MIN_LITERAL_CHARS = 4;

/**
 * Runs of characters one of which every match of `pattern` contains (one per top-level alternative), or null:
 * read off the pattern's top level (no group, class, bound, escape class, assertion or quantified character is
 * part of a run; an alternative without a run long enough, or flags other than `i`, give none). Under `i` only
 * ASCII characters make a run, and it is given lower-cased: ASCII letters match only ASCII letters there, so a
 * match lower-cased contains it. A body without any of them cannot match, and looking for one costs a fraction of
 * running a pattern over 256 KiB: an ordinary homepage, tested against every strong marker, contains none.
 */
export function requiredLiterals(pattern: RegExp): string[] | null {
  const caseBlind = pattern.flags === 'i';
  if (pattern.flags !== '' && !caseBlind) return null;
  const source = pattern.source;
  const found: string[] = [];
  let best = '';
  let run = '';
  const cut = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  const endAlternative = (): boolean => {
    cut();
    if (best.length < MIN_LITERAL_CHARS) return false;
    found.push(caseBlind ? best.toLowerCase() : best);
    best = '';
    return true;
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    let literal: string | null = null;
    let next = i + 1;
    if (c === '|') {
      if (!endAlternative()) return null;
    } else if (c === '\\') {
      const escaped = source[i + 1] ?? '';
      next = i + 2;
      if (escaped !== '' && !/[A-Za-z0-9]/.test(escaped)) literal = escaped;
    } else if (c === '(' || c === '[') {
      next = skipGroupOrClass(source, i);
      if (next < 0) return null;
    } else if (c === '{') {
      // A bound ({0,400}): its digits are no characters of the text.
      next = source.indexOf('}', i) + 1;
      if (next === 0) return null;
    } else if (!'.^$*+?}])'.includes(c)) {
      literal = c;
    }
    // A quantifier makes what it follows optional or repeated: no part of a run either way.
    const q = source[next];
    if (q === '*' || q === '+' || q === '?' || q === '{') literal = null;
    if (literal !== null && caseBlind && literal.charCodeAt(0) > 0x7f) literal = null;
    if (literal === null) cut();
    else run += literal;
    i = next;
  }
  return endAlternative() ? found : null;
}

/** The index just past the group or class opening at `from`, or -1 when the source ends first. */
function skipGroupOrClass(source: string, from: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = from; i < source.length; i += 1) {
    const c = source[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') {
        inClass = false;
        if (depth === 0) return i + 1;
      }
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** requiredLiterals of each marker's pattern, read once. */
const literals = new WeakMap<RegExp, string[] | null>();

function literalsOf(pattern: RegExp): string[] | null {
  let found = literals.get(pattern);
  if (found === undefined) {
    found = requiredLiterals(pattern);
    literals.set(pattern, found);
  }
  return found;
}

/**
 * One search for all strong body markers' literals, per case: a pattern of the literals as alternatives matches
 * exactly when one of them occurs, and one regular-expression scan of the page costs less than a substring search
 * per literal (an ordinary homepage holds none). Markers whose literals are null are not in it. The case-blind
 * literals (ASCII, lower-cased) are looked for under `i` in the body itself, as the markers' own patterns read
 * it, so a page holding none is never lower-cased (a copy of up to 256 KiB, a third of the check on real pages):
 * a match of such a pattern holds its literal under `i`, so where the search finds none the pattern cannot match;
 * where it finds one, the literals are looked for in the lower-cased body as before.
 */
interface StrongLiterals {
  caseSensitive: RegExp | null;
  caseBlind: RegExp | null;
  /** The markers the two patterns stand for. */
  markers: Set<ChallengeMarker>;
}

const strongLiteralsOf = new WeakMap<readonly ChallengeSignature[], StrongLiterals>();

function strongLiterals(signatures: readonly ChallengeSignature[]): StrongLiterals {
  let found = strongLiteralsOf.get(signatures);
  if (found === undefined) {
    const sensitive = new Set<string>();
    const blind = new Set<string>();
    const markers = new Set<ChallengeMarker>();
    for (const signature of signatures) {
      for (const marker of signature.markers) {
        if (marker.strength !== 'strong' || marker.where !== 'body') continue;
        const needed = literalsOf(marker.pattern);
        if (needed === null) continue;
        markers.add(marker);
        for (const literal of needed) (marker.pattern.flags === 'i' ? blind : sensitive).add(literal);
      }
    }
    const alternatives = (literals: Set<string>, flags: string): RegExp | null =>
      literals.size === 0 ? null : anyOfLiterals(literals, flags);
    found = { caseSensitive: alternatives(sensitive, ''), caseBlind: alternatives(blind, 'i'), markers };
    strongLiteralsOf.set(signatures, found);
  }
  return found;
}

/** False when the page holds none of the literals `marker` needs (it cannot match); true when it may. */
function mayHold(marker: ChallengeMarker, page: Page, strong: StrongLiterals): boolean {
  if (!strong.markers.has(marker)) return true;
  if (marker.pattern.flags === 'i') {
    page.strongLiterals.caseBlind ??= strong.caseBlind?.test(page.body) ?? false;
    return page.strongLiterals.caseBlind;
  }
  page.strongLiterals.caseSensitive ??= strong.caseSensitive?.test(page.body) ?? false;
  return page.strongLiterals.caseSensitive;
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
      const needed = literalsOf(marker.pattern);
      if (needed !== null) {
        const caseBlind = marker.pattern.flags === 'i';
        if (caseBlind) page.lowered ??= page.body.toLowerCase();
        const text = caseBlind ? (page.lowered as string) : page.body;
        if (!needed.some((literal) => text.includes(literal))) return null;
      }
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
  const page: Page = {
    status,
    headers,
    title: pageTitle(text),
    body: text,
    lowered: null,
    strongLiterals: { caseSensitive: null, caseBlind: null },
  };
  const strong = strongLiterals(signatures);
  for (const strength of ['strong', 'weak'] as const) {
    for (const signature of signatures) {
      for (const marker of signature.markers) {
        if (marker.strength !== strength) continue;
        if (!mayHold(marker, page, strong)) continue;
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
