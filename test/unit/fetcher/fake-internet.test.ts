import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SITES, startFakeInternet } from '../../fixtures/fake-internet/index.js';

describe('the fake internet', () => {
  it('has a certificate naming every https scenario host but the bad-certificate one', () => {
    const cert = new X509Certificate(
      readFileSync(new URL('../../fixtures/fake-internet/certs/server.pem', import.meta.url)),
    );
    const names = (cert.subjectAltName ?? '').split(', ').map((n) => n.replace(/^DNS:/, ''));
    for (const host of Object.values(SITES)) {
      if (host === SITES.badCert || host === SITES.unresolvable) expect(names).not.toContain(host);
      else expect(names).toContain(host);
    }
    expect(new Date(cert.validTo).getFullYear()).toBeGreaterThan(2100);
  });

  it('closes cleanly while a request hangs and a huge body streams', async () => {
    const net = await startFakeInternet();
    const open = (host: string) =>
      new Promise<void>((resolve) => {
        const req = request(
          { host: '127.0.0.1', port: net.httpPort, headers: { host }, path: '/' },
          (res) => {
            res.on('data', () => undefined);
            res.on('error', () => undefined);
            res.on('close', () => resolve());
          },
        );
        req.on('error', () => resolve());
        req.end();
      });
    const hanging = open(SITES.hang);
    const streaming = open(SITES.huge);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await net.close();
    await Promise.all([hanging, streaming]);
    expect(net.hits(SITES.hang)).toBe(1);
    expect(net.hits(SITES.huge)).toBe(1);
  });
});
