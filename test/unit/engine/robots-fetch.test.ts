// fetchRobots through the real fetcher against the fake internet: redirect chains and the 500 KiB limit.
import { describe, expect, it } from 'vitest';
import { fetchRobots } from '../../../src/engine/robots.js';
import { PLAIN_HTTP_SITES as SITES } from '../../fixtures/fake-internet/index.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const web = useFakeInternet();

describe('fetchRobots over HTTP', () => {
  it('follows 5 redirects and applies the file to the origin asked for', async () => {
    const origin = `http://${SITES.robotsFiveHops}`;
    const { policy, body } = await fetchRobots(web.fetcher, origin);
    expect(policy).toMatchObject({ url: `${origin}/robots.txt`, exists: true, status_code: 200 });
    expect(policy.allowed(`${origin}/private/a`)).toBe(false);
    expect(policy.decide(`${origin}/private/a`).rule).toEqual({
      rule: 'disallow',
      pattern: '/private/',
      line: 2,
    });
    expect(policy.allowed(`${origin}/news`)).toBe(true);
    expect(body?.toString()).toContain('Disallow: /private/');
    expect(web.net.hits(SITES.robotsFiveHops, '/hop/5')).toBe(1);
  });

  it('treats a sixth redirect as no robots.txt: everything allowed (RFC 9309 §2.3.1.2)', async () => {
    const origin = `http://${SITES.robotsSixHops}`;
    const { policy, body } = await fetchRobots(web.fetcher, origin);
    expect(policy).toMatchObject({ exists: false, disallowAllReason: null, status_code: 301 });
    expect(policy.allowed(`${origin}/private/a`)).toBe(true);
    expect(body).toBeNull();
    expect(web.net.hits(SITES.robotsSixHops, '/hop/6')).toBe(0);
  });

  it('reads a robots.txt larger than 500 KiB up to the limit instead of refusing it', async () => {
    const origin = `http://${SITES.robotsHuge}`;
    const { policy, body } = await fetchRobots(web.fetcher, origin);
    expect(policy).toMatchObject({ exists: true, truncated: true, disallowAllReason: null });
    expect(policy.allowed(`${origin}/early/a`)).toBe(false);
    expect(policy.allowed(`${origin}/late/a`)).toBe(true);
    // The fetcher keeps its 512 KiB cap as evidence; the parser reads the first 500 KiB of it.
    expect(body?.length).toBe(512 * 1024);
  });
});
