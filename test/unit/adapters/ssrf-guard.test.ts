import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import {
  createBlockList,
  embeddedIpv4,
  isBlockedAddress,
  resolvePublicAddresses,
  SsrfBlockedError,
} from '../../../src/adapters/ssrf-guard.js';

const list = createBlockList();

describe('isBlockedAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8 edge'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT edge'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback edge'],
    ['169.254.169.254', 'link-local / cloud metadata'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12 edge'],
    ['192.168.1.1', 'private 192.168/16'],
    ['192.0.0.8', 'IETF assignments'],
    ['192.0.2.10', 'TEST-NET-1'],
    ['198.18.0.1', 'benchmarking'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf::1', 'IPv6 link-local edge'],
    ['fc00::1', 'unique local fc'],
    ['fd12:3456::1', 'unique local fd'],
    ['ff02::1', 'IPv6 multicast'],
    ['fec0::1', 'site-local'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback (dotted)'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback (hex)'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
    ['::ffff:192.168.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['fe80::1%eth0', 'zoned link-local'],
    ['not-an-ip', 'not an address at all'],
  ])('refuses %s (%s)', (address) => {
    expect(isBlockedAddress(address, list)).toBe(true);
  });

  it.each([
    ['1.1.1.1'],
    ['8.8.8.8'],
    ['93.184.215.14'],
    ['100.63.255.255'],
    ['100.128.0.0'],
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['192.169.0.1'],
    ['223.255.255.255'],
    ['2606:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
  ])('lets public %s through', (address) => {
    expect(isBlockedAddress(address, list)).toBe(false);
  });
});

describe('embeddedIpv4', () => {
  it('reads mapped, NAT64 and 6to4 forms and nothing else', () => {
    expect(embeddedIpv4('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(embeddedIpv4('::ffff:102:304')).toBe('1.2.3.4');
    expect(embeddedIpv4('64:ff9b::102:304')).toBe('1.2.3.4');
    expect(embeddedIpv4('2002:102:304::')).toBe('1.2.3.4');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
    expect(embeddedIpv4('1:2:3:4:5:6:7:8:9')).toBeNull();
  });
});

function fakeLookup(answers: Record<string, LookupAddress[]>) {
  return vi.fn(async (hostname: string) => {
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  });
}

describe('resolvePublicAddresses', () => {
  const options = (lookup: ReturnType<typeof fakeLookup>) => ({ lookup, timeoutMs: 1_000, blockList: list });

  it('returns the addresses of a public name', async () => {
    const lookup = fakeLookup({ 'example.org': [{ address: '93.184.215.14', family: 4 }] });
    await expect(resolvePublicAddresses('example.org', options(lookup))).resolves.toEqual([
      { address: '93.184.215.14', family: 4 },
    ]);
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const lookup = fakeLookup({
      'rebind.example': [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    });
    const err = await resolvePublicAddresses('rebind.example', options(lookup)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsrfBlockedError);
    expect((err as SsrfBlockedError).address).toBe('10.0.0.5');
  });

  it('refuses a name resolving to an IPv4-mapped loopback', async () => {
    const lookup = fakeLookup({ 'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }] });
    await expect(resolvePublicAddresses('mapped.example', options(lookup))).rejects.toBeInstanceOf(
      SsrfBlockedError,
    );
  });

  it('checks IP literals without asking DNS', async () => {
    const lookup = fakeLookup({});
    await expect(resolvePublicAddresses('127.0.0.1', options(lookup))).rejects.toBeInstanceOf(
      SsrfBlockedError,
    );
    await expect(resolvePublicAddresses('[::1]', options(lookup))).rejects.toBeInstanceOf(SsrfBlockedError);
    await expect(resolvePublicAddresses('::ffff:7f00:1', options(lookup))).rejects.toBeInstanceOf(
      SsrfBlockedError,
    );
    await expect(resolvePublicAddresses('8.8.8.8', options(lookup))).resolves.toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('passes DNS failures through with their code', async () => {
    const err = await resolvePublicAddresses('nowhere.invalid', options(fakeLookup({}))).catch(
      (e: unknown) => e,
    );
    expect((err as { code?: string }).code).toBe('ENOTFOUND');
  });

  it('gives up on a lookup that never returns', async () => {
    const lookup = vi.fn(() => new Promise<LookupAddress[]>(() => undefined));
    const err = await resolvePublicAddresses('slow.example', {
      lookup,
      timeoutMs: 20,
      blockList: list,
    }).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('ETIMEDOUT');
  });
});
