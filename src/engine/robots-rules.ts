// A robots.txt parser and matcher per RFC 9309, reading files the way Google's reference parser
// (google/robotstxt) does: its key typos, missing colons, BOMs, group merging and longest-match precedence.
import { canonicalPath, compilePattern, matches, type PathPattern } from './robots-pattern.js';

/** RFC 9309 §2.5: crawlers parse at least the first 500 KiB; Google reads exactly that much. */
export const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;
/** Google cuts a line after 8 × 2083 bytes (eight times the longest URL a browser accepted). */
const MAX_LINE_BYTES = 8 * 2083 - 1;

export type RuleKind = 'allow' | 'disallow';

/** One Allow/Disallow line as written (value trimmed, comment removed) and where it stands. */
export interface RobotsRule {
  rule: RuleKind;
  pattern: string;
  /** 1-based line number in the file (CR, LF and CRLF each end a line). */
  line: number;
}

export interface RobotsGroup {
  /** Product tokens the group names, lower-cased; `*` for the catch-all. */
  agents: string[];
  rules: RobotsRule[];
  /** Seconds; the largest valid Crawl-delay in the group, null when none. */
  crawlDelay: number | null;
  /** Line of the group's first User-agent. */
  line: number;
}

export interface RobotsDecision {
  allowed: boolean;
  /** The line that decided, or null when no rule matched (allowed by default). */
  rule: RobotsRule | null;
}

/** Which groups speak to an agent: the ones that name it, else the `*` ones (RFC 9309 §2.2.1). */
export interface AgentRules {
  scope: 'named' | 'star' | 'none';
  groups: RobotsGroup[];
  rules: RobotsRule[];
  crawlDelay: number | null;
}

type Key = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay';

// Google accepts these spellings by prefix, case-insensitively ("Site-map", "DISALOW", "useragent", "Sitemaps").
const KEY_PREFIXES: ReadonlyArray<readonly [Key, readonly string[]]> = [
  ['user-agent', ['user-agent', 'useragent', 'user agent']],
  ['allow', ['allow']],
  ['disallow', ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']],
  ['sitemap', ['sitemap', 'site-map']],
  // Not in Google's parser (it ignores Crawl-delay); the same prefix rule, with the usual spellings.
  ['crawl-delay', ['crawl-delay', 'crawldelay', 'crawl delay']],
];

function keyOf(name: string): Key | null {
  const lower = name.toLowerCase();
  for (const [key, prefixes] of KEY_PREFIXES) {
    if (prefixes.some((p) => lower.startsWith(p))) return key;
  }
  return null;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const ASCII_SPACE = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;
const WHITESPACE = /[ \t]/;

/** Bytes of a robots.txt without the leading (possibly partial) UTF-8 BOM, cut to the parse limit. */
function usableBytes(input: string | Uint8Array): { bytes: Buffer; truncated: boolean } {
  let bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input);
  let skip = 0;
  while (skip < UTF8_BOM.length && bytes[skip] === UTF8_BOM[skip]) skip++;
  bytes = bytes.subarray(skip);
  if (bytes.length <= ROBOTS_PARSE_LIMIT_BYTES) return { bytes, truncated: false };
  // Drop the line the limit cuts through: half a "Disallow: /private" would read as a wider rule.
  const head = bytes.subarray(0, ROBOTS_PARSE_LIMIT_BYTES);
  const next = bytes[ROBOTS_PARSE_LIMIT_BYTES];
  const lineEnds = next === 0x0a || next === 0x0d;
  const lastEnd = Math.max(head.lastIndexOf(0x0a), head.lastIndexOf(0x0d));
  return { bytes: lineEnds ? head : head.subarray(0, lastEnd + 1), truncated: true };
}

/** Lines as byte strings (one char per byte), CR / LF / CRLF, each cut at Google's line limit. */
function splitLines(bytes: Buffer): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    const byte = bytes[i];
    if (i < bytes.length && byte !== 0x0a && byte !== 0x0d) continue;
    lines.push(bytes.toString('latin1', start, Math.min(i, start + MAX_LINE_BYTES)));
    if (byte === 0x0d && bytes[i + 1] === 0x0a) i++;
    start = i + 1;
  }
  return lines;
}

/** `key: value`, or `key value` when the colon is missing and the line has exactly two words (Google). */
function splitLine(line: string): { name: string; value: string } | null {
  const hash = line.indexOf('#');
  const text = (hash >= 0 ? line.slice(0, hash) : line).replace(ASCII_SPACE, '');
  if (text === '') return null;
  let sep = text.indexOf(':');
  let valueStart = sep + 1;
  if (sep < 0) {
    sep = text.search(WHITESPACE);
    if (sep < 0) return null;
    const value = text.slice(sep).replace(ASCII_SPACE, '');
    if (WHITESPACE.test(value)) return null;
    valueStart = sep;
  }
  const name = text.slice(0, sep).replace(ASCII_SPACE, '');
  if (name === '') return null;
  return { name, value: text.slice(valueStart).replace(ASCII_SPACE, '') };
}

/** The product token of a User-agent value: leading letters, `-` and `_` ("Foo Bar", "Foo/1.0" → "foo"). */
function productToken(value: string): string {
  // Google: a `*` followed by nothing or by whitespace is the catch-all, whatever comes after it.
  if (value === '*' || /^\*[ \t\v\f]/.test(value)) return '*';
  return (/^[A-Za-z_-]*/.exec(value)?.[0] ?? '').toLowerCase();
}

/** Seconds as a plain decimal number ("10", "2.5", ".5"); anything else (negative, "soon", "1e3") is ignored. */
export function parseCrawlDelay(value: string): number | null {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

const utf8 = (bytes: string) => Buffer.from(bytes, 'latin1').toString('utf8');

interface CompiledRule {
  main: PathPattern;
  /** Google: an Allow of `…/index.htm(l)` also allows the directory itself (`…/$`). */
  indexAlias: PathPattern | null;
}

function compileRule(kind: RuleKind, bytes: string): CompiledRule {
  const slash = bytes.lastIndexOf('/');
  const indexAlias =
    kind === 'allow' && slash >= 0 && bytes.startsWith('/index.htm', slash)
      ? compilePattern(`${bytes.slice(0, slash + 1)}$`)
      : null;
  return { main: compilePattern(bytes), indexAlias };
}

function agentRules(scope: AgentRules['scope'], groups: RobotsGroup[]): AgentRules {
  const delays = groups.map((g) => g.crawlDelay).filter((d): d is number => d !== null);
  return {
    scope,
    groups,
    rules: groups.flatMap((g) => g.rules),
    crawlDelay: delays.length > 0 ? Math.max(...delays) : null,
  };
}

/** A parsed robots.txt: plain data (groups, sitemaps) plus the compiled patterns its questions need. */
export class RobotsTxt {
  readonly #compiled: Map<RobotsRule, CompiledRule>;
  /** rulesFor answers by lower-cased token: decide asks it once per URL. */
  readonly #byAgent = new Map<string, AgentRules>();
  /** The tokens some group names, and the one answer every other agent gets (made on first use). */
  #namedTokens: Set<string> | null = null;
  #unnamed: AgentRules | null = null;

  constructor(
    readonly groups: readonly RobotsGroup[],
    /** Sitemap lines as written, in file order (not resolved, not de-duplicated). */
    readonly sitemaps: readonly string[],
    /** The file was longer than the parse limit; only the complete lines before it were read. */
    readonly truncated: boolean,
    compiled: Map<RobotsRule, CompiledRule>,
  ) {
    this.#compiled = compiled;
  }

  /** Which groups speak to `agent` (a product token, compared case-insensitively). */
  rulesFor(agent: string): AgentRules {
    const token = agent.toLowerCase();
    const known = this.#byAgent.get(token);
    if (known !== undefined) return known;
    this.#namedTokens ??= new Set(this.groups.flatMap((g) => g.agents));
    // An agent no group names gets the `*` groups' answer: one object for all of them, since a domain's AI
    // policy asks about thirty agents that a robots.txt seldom names, and each answer lives as long as the file.
    const answer =
      token !== '*' && this.#namedTokens.has(token)
        ? agentRules(
            'named',
            this.groups.filter((g) => g.agents.includes(token)),
          )
        : this.#unnamedRules();
    this.#byAgent.set(token, answer);
    return answer;
  }

  #unnamedRules(): AgentRules {
    if (this.#unnamed === null) {
      const groups = this.groups.filter((g) => g.agents.includes('*'));
      this.#unnamed = agentRules(groups.length > 0 ? 'star' : 'none', groups);
    }
    return this.#unnamed;
  }

  /**
   * Decides `url` for `agent`: the longest matching pattern wins, Allow on a tie; an empty pattern matches
   * nothing. `/robots.txt` itself is always allowed (RFC 9309 §2.2.2).
   */
  decide(agent: string, url: URL): RobotsDecision {
    const path = canonicalPath(url);
    if (path === '/robots.txt') return { allowed: true, rule: null };
    let best: { rule: RobotsRule; priority: number } | null = null;
    for (const rule of this.rulesFor(agent).rules) {
      const priority = this.#priority(rule, path);
      if (priority <= 0) continue;
      const wins =
        best === null ||
        priority > best.priority ||
        (priority === best.priority && rule.rule === 'allow' && best.rule.rule === 'disallow');
      if (wins) best = { rule, priority };
    }
    if (best === null) return { allowed: true, rule: null };
    return { allowed: best.rule.rule === 'allow', rule: best.rule };
  }

  /** The priority with which `rule` matches `path` (its pattern's length), or -1. */
  #priority(rule: RobotsRule, path: string): number {
    const compiled = this.#compiled.get(rule);
    if (compiled === undefined) return -1;
    if (matches(compiled.main.text, path)) return compiled.main.priority;
    if (compiled.indexAlias !== null && matches(compiled.indexAlias.text, path)) {
      return compiled.indexAlias.priority;
    }
    return -1;
  }
}

export function parseRobotsRules(input: string | Uint8Array): RobotsTxt {
  const { bytes, truncated } = usableBytes(input);
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  const compiled = new Map<RobotsRule, CompiledRule>();
  let current: RobotsGroup | null = null;
  // A User-agent line after a rule starts a new group; Sitemap, Crawl-delay and unknown lines do not end one.
  let sawRule = false;
  const lines = splitLines(bytes);
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const parts = splitLine(lines[index]!);
    if (parts === null) continue;
    const key = keyOf(parts.name);
    if (key === 'user-agent') {
      if (current === null || sawRule) {
        current = { agents: [], rules: [], crawlDelay: null, line };
        groups.push(current);
        sawRule = false;
      }
      const token = productToken(parts.value);
      if (token !== '' && !current.agents.includes(token)) current.agents.push(token);
    } else if (key === 'allow' || key === 'disallow') {
      if (current === null) continue; // RFC 9309 §2.1: rules outside a group are ignored
      sawRule = true;
      const rule: RobotsRule = { rule: key, pattern: utf8(parts.value), line };
      current.rules.push(rule);
      compiled.set(rule, compileRule(key, parts.value));
    } else if (key === 'crawl-delay') {
      const seconds = parseCrawlDelay(parts.value);
      if (current !== null && seconds !== null)
        current.crawlDelay = Math.max(current.crawlDelay ?? 0, seconds);
    } else if (key === 'sitemap') {
      if (parts.value !== '') sitemaps.push(utf8(parts.value));
    }
  }
  return new RobotsTxt(groups, sitemaps, truncated, compiled);
}
