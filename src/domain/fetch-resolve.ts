// Parses SEEDBED_FETCH_RESOLVE (curl --resolve style host overrides) and matches a request's host and port
// against it. Pure: the fetcher adapter uses the result to pick the address it connects to.
import { isIP } from 'node:net';

export interface ResolveEntry {
  /** Lower-case host, or the suffix after `*.` for a wildcard. */
  host: string;
  wildcard: boolean;
  /** null: any port. */
  port: number | null;
  address: string;
  addressPort: number;
}

export interface ResolveTarget {
  address: string;
  port: number;
}

export class ResolveSpecError extends Error {
  constructor(message: string) {
    super(`SEEDBED_FETCH_RESOLVE: ${message}`);
    this.name = 'ResolveSpecError';
  }
}

const HOST_LABELS = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

function parsePort(text: string, what: string, entry: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
    throw new ResolveSpecError(`bad ${what} ${JSON.stringify(text)} in ${JSON.stringify(entry)}`);
  }
  return Number(text);
}

/** `address:port`, the address an IP literal (IPv6 in brackets). */
function parseTarget(text: string, entry: string): ResolveTarget {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:[\]]+):(\d+)$/.exec(text);
  if (!m) throw new ResolveSpecError(`target must be address:port in ${JSON.stringify(entry)}`);
  const address = m[1]!;
  if (isIP(address) === 0) {
    throw new ResolveSpecError(`target address must be an IP literal in ${JSON.stringify(entry)}`);
  }
  return { address, port: parsePort(m[2]!, 'target port', entry) };
}

/**
 * `pattern[:port]=address:port[,…]`. A pattern is an exact host (`example.org`) or `*.suffix`, which matches
 * every host under the suffix but NOT the bare suffix itself (add `suffix=…` for that), like a certificate
 * wildcard. A bare `*` is refused: it would switch the SSRF guard off for every host.
 */
export function parseResolveSpec(spec: string | undefined): ResolveEntry[] {
  if (spec === undefined || spec.trim() === '') return [];
  const entries: ResolveEntry[] = [];
  for (const raw of spec.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    if (eq <= 0)
      throw new ResolveSpecError(`expected pattern[:port]=address:port, got ${JSON.stringify(entry)}`);
    const left = entry.slice(0, eq).trim().toLowerCase();
    const target = parseTarget(entry.slice(eq + 1).trim(), entry);
    const colon = left.lastIndexOf(':');
    const pattern = colon === -1 ? left : left.slice(0, colon);
    const port = colon === -1 ? null : parsePort(left.slice(colon + 1), 'pattern port', entry);
    const wildcard = pattern.startsWith('*.');
    const host = (wildcard ? pattern.slice(2) : pattern).replace(/\.$/, '');
    if (!HOST_LABELS.test(host)) {
      throw new ResolveSpecError(`bad host pattern ${JSON.stringify(pattern)} (use a host or *.suffix)`);
    }
    entries.push({ host, wildcard, port, address: target.address, addressPort: target.port });
  }
  return entries;
}

/** How specific an entry is for a host it matches: exact beats wildcard, a named port beats any port. */
function rank(entry: ResolveEntry): number {
  return (entry.wildcard ? 0 : 1_000_000) + (entry.port === null ? 0 : 500_000) + entry.host.length;
}

/** The most specific matching entry wins, whatever the order in the spec; on a tie the first listed. */
export function matchResolve(
  entries: readonly ResolveEntry[],
  hostname: string,
  port: number,
): ResolveTarget | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  let best: ResolveEntry | null = null;
  for (const entry of entries) {
    if (entry.port !== null && entry.port !== port) continue;
    const hit = entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host;
    if (hit && (best === null || rank(entry) > rank(best))) best = entry;
  }
  return best === null ? null : { address: best.address, port: best.addressPort };
}
