// The SSRF guard: decides whether an IP address may be connected to, and resolves a hostname to addresses that
// all pass. Used at connect time by the HTTP fetcher, so redirects and DNS rebinding go through it too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Special-purpose IPv4 ranges (RFC 6890 and friends) that a public web server never lives in. */
export const BLOCKED_IPV4_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'this network / unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved and broadcast'],
];

export const BLOCKED_IPV6_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  // ::/96 holds :: (unspecified), ::1 (loopback) and the deprecated IPv4-compatible addresses.
  ['::', 96, 'unspecified, loopback, IPv4-compatible'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];

export function createBlockList(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of BLOCKED_IPV4_RANGES) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of BLOCKED_IPV6_RANGES) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

function hextets(ipv6: string): number[] | null {
  let text = ipv6.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  // A dotted tail (::ffff:1.2.3.4) becomes two hextets.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  if (fill < 0) return null;
  const parts = [...left, ...Array<string>(fill).fill('0'), ...right].map((h) => Number.parseInt(h, 16));
  return parts.length === 8 && parts.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffff)
    ? parts
    : null;
}

function ipv4From(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one that a router would act on:
 * IPv4-mapped (::ffff:a.b.c.d), NAT64 well-known prefix (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48).
 */
export function embeddedIpv4(ipv6: string): string | null {
  const h = hextets(ipv6);
  if (h === null) return null;
  if (h[0] === 0 && h[1] === 0 && h[2] === 0 && h[3] === 0 && h[4] === 0 && h[5] === 0xffff) {
    return ipv4From(h[6]!, h[7]!);
  }
  if (h[0] === 0x64 && h[1] === 0xff9b && h[2] === 0 && h[3] === 0 && h[4] === 0 && h[5] === 0) {
    return ipv4From(h[6]!, h[7]!);
  }
  if (h[0] === 0x2002) return ipv4From(h[1]!, h[2]!);
  return null;
}

/** True when the address must not be connected to. Anything that is not an IP literal is refused too. */
export function isBlockedAddress(address: string, list: BlockList = createBlockList()): boolean {
  const family = isIP(address);
  if (family === 4) return list.check(address, 'ipv4');
  if (family !== 6) return true;
  const bare = address.replace(/%.*$/, '');
  if (list.check(bare, 'ipv6')) return true;
  const v4 = embeddedIpv4(bare);
  return v4 !== null && list.check(v4, 'ipv4');
}

export class SsrfBlockedError extends Error {
  readonly code = 'SSRF_BLOCKED';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(
      hostname === address
        ? `refused to connect to ${address}: not a public address`
        : `refused to connect to ${hostname}: it resolves to ${address}, not a public address`,
    );
    this.name = 'SsrfBlockedError';
  }
}

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

export const systemLookup: LookupAll = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses);
    });
  });

export class LookupTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(hostname: string, ms: number) {
    super(`DNS lookup of ${hostname} took longer than ${ms} ms`);
    this.name = 'LookupTimeoutError';
  }
}

/**
 * The addresses to connect to for `hostname`. IP literals are checked as they are (they never reach DNS);
 * a name is refused when ANY of its addresses is blocked, since the socket could pick any of them.
 */
export async function resolvePublicAddresses(
  hostname: string,
  options: { lookup: LookupAll; timeoutMs: number; blockList: BlockList },
): Promise<LookupAddress[]> {
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(literal);
  if (family !== 0) {
    if (isBlockedAddress(literal, options.blockList)) throw new SsrfBlockedError(literal, literal);
    return [{ address: literal, family }];
  }
  let timer: NodeJS.Timeout | undefined;
  // dns.lookup cannot be cancelled (it runs on the libuv pool), so the timeout only stops the wait.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LookupTimeoutError(hostname, options.timeoutMs)), options.timeoutMs);
  });
  try {
    const addresses = await Promise.race([options.lookup(hostname), timeout]);
    if (addresses.length === 0) {
      throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
    }
    const bad = addresses.find((a) => isBlockedAddress(a.address, options.blockList));
    if (bad) throw new SsrfBlockedError(hostname, bad.address);
    return addresses;
  } finally {
    clearTimeout(timer);
  }
}
