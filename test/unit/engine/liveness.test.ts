import { afterAll, describe, expect, it } from 'vitest';
import {
  checkLiveness,
  classifyAnswer,
  isChallengePage,
  isNetworkUnavailable,
} from '../../../src/engine/liveness.js';
import { createNetworkCanary, type NetworkCanary } from '../../../src/engine/network-canary.js';
import type { Fetcher } from '../../../src/ports/fetcher.js';
import { CHALLENGE_PAGE } from '../../fixtures/fake-internet/content.js';
import { CANARY_URL, CHALLENGE_SITES, SITES } from '../../fixtures/fake-internet/index.js';
import { deadResolverFetcher, refusingFetcher } from '../../fixtures/fake-internet/outage.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const NOW = new Date('2025-03-04T05:06:07.000Z');
const now = () => NOW;

describe('checkLiveness on the fake internet', () => {
  const web = useFakeInternet();

  it('reports a live https site in full', async () => {
    const result = await checkLiveness(web.fetcher, SITES.news, { now });
    expect(result).toEqual({
      domain: SITES.news,
      alive: true,
      state: 'alive',
      http_status: 200,
      final_url: `https://${SITES.news}/`,
      https: true,
      latency_ms: expect.any(Number),
      error_code: null,
      error_message: null,
      evidence: null,
      checked_at: NOW.toISOString(),
    });
  });

  it.each([
    [
      'redirecting',
      SITES.atom,
      { state: 'alive', http_status: 200, https: true, final_url: 'https://atom.test/home/' },
    ],
    [
      'http-only',
      SITES.httpOnly,
      { state: 'alive', http_status: 200, https: false, final_url: 'http://plain.test/' },
    ],
    ['600 MB homepage', SITES.huge, { state: 'alive', http_status: 200, https: true, error_code: null }],
    ['403', SITES.forbidden, { state: 'blocked', http_status: 403, error_code: 'HTTP_403' }],
    ['challenge page', SITES.challenge, { state: 'blocked', http_status: 503, error_code: 'CHALLENGE' }],
    ['503', SITES.unavailable, { state: 'dead', http_status: 503, error_code: 'HTTP_503' }],
    ['silent server', SITES.hang, { state: 'dead', http_status: null, error_code: 'TIMEOUT' }],
    [
      'unresolvable',
      SITES.unresolvable,
      { state: 'dead', http_status: null, error_code: 'ENOTFOUND', https: false },
    ],
    ['redirect loop', SITES.loop, { state: 'error', error_code: 'REDIRECT_LOOP', final_url: null }],
    ['endless redirects', SITES.chain, { state: 'error', error_code: 'TOO_MANY_REDIRECTS' }],
    ['redirect to a private address', SITES.ssrf, { state: 'error', error_code: 'SSRF_BLOCKED' }],
    ['wrong certificate', SITES.badCert, { state: 'error', error_code: 'TLS', https: false }],
  ])('%s (%s)', async (_name, domain, expected) => {
    const result = await checkLiveness(web.fetcher, domain, { now });
    expect(result).toMatchObject({ domain, ...expected, alive: expected.state === 'alive' });
    if (expected.state !== 'alive') {
      expect(result.error_code).toEqual(expect.any(String));
      expect(result.error_message).toEqual(expect.any(String));
    }
  });

  it('never reaches the private server', () => {
    expect(web.net.privateHits()).toBe(0);
  });

  it('tries http after a refused https', async () => {
    const before = web.net.hits(SITES.httpOnly);
    await checkLiveness(web.fetcher, SITES.httpOnly, { now });
    expect(web.net.requests.slice(-1)[0]).toMatchObject({ host: SITES.httpOnly, scheme: 'http' });
    expect(web.net.hits(SITES.httpOnly) - before).toBe(1);
  });

  it('refuses a domain that is not a host name without fetching', async () => {
    const stub = stubFetcher({});
    const result = await checkLiveness(stub, 'exa mple.org/path', { now });
    expect(result).toMatchObject({ state: 'error', error_code: 'INVALID_URL', alive: false });
    expect(stub.calls).toEqual([]);
  });
});

describe('checkLiveness fallbacks (stubbed)', () => {
  it('does not try http after ENOTFOUND or after any HTTP answer', async () => {
    const gone = stubFetcher({ 'https://a.example/': { error: 'ENOTFOUND' } });
    await checkLiveness(gone, 'a.example', { now });
    expect(gone.calls).toEqual(['https://a.example/']);
    const broken = stubFetcher({ 'https://a.example/': { status: 500 } });
    expect(await checkLiveness(broken, 'a.example', { now })).toMatchObject({
      state: 'dead',
      error_code: 'HTTP_500',
    });
    expect(broken.calls).toEqual(['https://a.example/']);
  });

  it('keeps the https failure when http fails no further', async () => {
    const both = stubFetcher({
      'https://a.example/': { error: 'TLS' },
      'http://a.example/': { error: 'ECONNREFUSED' },
    });
    expect(await checkLiveness(both, 'a.example', { now })).toMatchObject({
      state: 'error',
      error_code: 'TLS',
    });
    expect(both.calls).toEqual(['https://a.example/', 'http://a.example/']);
  });

  it('reports the http failure when it got further than https', async () => {
    const both = stubFetcher({
      'https://a.example/': { error: 'ECONNREFUSED' },
      'http://a.example/': { error: 'REDIRECT_LOOP', status: 302 },
    });
    expect(await checkLiveness(both, 'a.example', { now })).toMatchObject({
      state: 'error',
      error_code: 'REDIRECT_LOOP',
    });
  });

  it('marks an http answer that redirects to https as https', async () => {
    const up = stubFetcher({
      'https://a.example/': { error: 'TIMEOUT' },
      'http://a.example/': { status: 200, finalUrl: 'https://www.a.example/' },
    });
    expect(await checkLiveness(up, 'a.example', { now })).toMatchObject({ state: 'alive', https: true });
  });

  it("records the site's own latency, not what the request waited in our own line", async () => {
    const busy = stubFetcher({ 'https://a.example/': { status: 200, elapsedMs: 5_200, waitedMs: 5_000 } });
    expect(await checkLiveness(busy, 'a.example', { now })).toMatchObject({
      state: 'alive',
      latency_ms: 200,
    });
  });
});

describe('classifyAnswer', () => {
  const empty = Buffer.alloc(0);
  it.each([
    [200, 'alive', null],
    [204, 'alive', null],
    [304, 'alive', null],
    [401, 'blocked', 'HTTP_401'],
    [403, 'blocked', 'HTTP_403'],
    [429, 'blocked', 'HTTP_429'],
    [451, 'blocked', 'HTTP_451'],
    [404, 'dead', 'HTTP_404'],
    [410, 'dead', 'HTTP_410'],
    [500, 'dead', 'HTTP_500'],
    [502, 'dead', 'HTTP_502'],
    [400, 'error', 'HTTP_400'],
    [418, 'error', 'HTTP_418'],
  ])('%i → %s', (status, state, code) => {
    expect(classifyAnswer(status, {}, empty, 'https://a/')).toMatchObject({ state, error_code: code });
  });
});

describe('isChallengePage', () => {
  it('spots a Cloudflare interstitial by header or by body, whatever the status', () => {
    expect(isChallengePage(403, { 'cf-mitigated': 'challenge' }, Buffer.alloc(0))).toBe(true);
    expect(isChallengePage(200, {}, Buffer.from(CHALLENGE_PAGE))).toBe(true);
    expect(isChallengePage(503, {}, Buffer.from(CHALLENGE_PAGE))).toBe(true);
  });

  it('needs an error status before trusting a weak marker', () => {
    const page = Buffer.from('<html><form><div class="g-recaptcha">captcha</div></form></html>');
    expect(isChallengePage(200, {}, page)).toBe(false);
    expect(isChallengePage(403, {}, page)).toBe(true);
    const injected = Buffer.from(
      '<html><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script></html>',
    );
    expect(isChallengePage(200, {}, injected)).toBe(false);
  });
});

describe('bot walls on the fake internet', () => {
  const web = useFakeInternet();

  it.each([
    [
      'Cloudflare managed challenge: 403 + cf-mitigated',
      CHALLENGE_SITES.cfManaged,
      403,
      { signature: 'cloudflare-challenge', matched: 'header cf-mitigated: challenge', server: 'cloudflare' },
    ],
    [
      'Cloudflare JS challenge: 503 "Just a moment..."',
      CHALLENGE_SITES.cfJsChallenge,
      503,
      { signature: 'cloudflare-challenge', matched: 'title "Just a moment..."' },
    ],
    [
      'Cloudflare 1020 block',
      CHALLENGE_SITES.cfBlock,
      403,
      { signature: 'cloudflare-block', page: 'block', vendor: 'Cloudflare' },
    ],
    [
      'DataDome captcha',
      CHALLENGE_SITES.datadome,
      403,
      { signature: 'datadome', vendor: 'DataDome', page: 'captcha' },
    ],
    [
      'AWS WAF challenge on a 202',
      CHALLENGE_SITES.awsWaf,
      202,
      { signature: 'aws-waf', matched: 'header x-amzn-waf-action: challenge' },
    ],
  ])('%s is blocked, naming the signature', async (_name, domain, status, evidence) => {
    const result = await checkLiveness(web.fetcher, domain, { now });
    expect(result).toMatchObject({
      domain,
      alive: false,
      state: 'blocked',
      http_status: status,
      error_code: 'CHALLENGE',
      evidence: { kind: 'challenge', status, ...evidence },
    });
    expect(result.error_message).toContain((evidence as { signature: string }).signature);
  });

  it('keeps a page that only mentions a captcha alive', async () => {
    const result = await checkLiveness(web.fetcher, CHALLENGE_SITES.captchaForm, { now });
    expect(result).toMatchObject({ state: 'alive', alive: true, error_code: null, evidence: null });
  });

  it("calls an origin's 503 dead even with Cloudflare's bot script injected", async () => {
    const result = await checkLiveness(web.fetcher, CHALLENGE_SITES.maintenance, { now });
    expect(result).toMatchObject({ state: 'dead', error_code: 'HTTP_503', evidence: null });
  });

  it('names the status (and server) when a plain 403 blocked us', async () => {
    const result = await checkLiveness(web.fetcher, SITES.forbidden, { now });
    expect(result).toMatchObject({
      state: 'blocked',
      error_code: 'HTTP_403',
      evidence: { kind: 'status', status: 403, server: null },
    });
  });
});

describe('the network canary on the fake internet', () => {
  const web = useFakeInternet();
  const canaryOf = (fetcher: Fetcher, url = CANARY_URL): NetworkCanary =>
    createNetworkCanary({ fetcher, urls: [url], now });

  it('still calls an unresolvable domain dead when the canary answers, with the canary as evidence', async () => {
    const result = await checkLiveness(web.fetcher, SITES.unresolvable, {
      now,
      canary: canaryOf(web.fetcher),
    });
    expect(result).toMatchObject({
      state: 'dead',
      alive: false,
      error_code: 'ENOTFOUND',
      evidence: {
        kind: 'network',
        network_up: true,
        canary_checked_at: NOW.toISOString(),
        canary: [{ url: CANARY_URL, status: 204, error_code: null }],
      },
    });
    expect(isNetworkUnavailable(result)).toBe(false);
  });

  it('still calls a refused and a silent site dead when the canary answers', async () => {
    const canary = canaryOf(web.fetcher);
    expect(await checkLiveness(web.fetcher, SITES.hang, { now, canary })).toMatchObject({
      state: 'dead',
      error_code: 'TIMEOUT',
    });
    const refused = stubFetcher({
      'https://a.example/': { error: 'ECONNREFUSED' },
      'http://a.example/': { error: 'ECONNREFUSED' },
      [CANARY_URL]: { status: 204 },
    });
    expect(await checkLiveness(refused, 'a.example', { now, canary: canaryOf(refused) })).toMatchObject({
      state: 'dead',
      error_code: 'ECONNREFUSED',
    });
  });

  it('asks the canary once for a burst of failures', async () => {
    const canary = canaryOf(web.fetcher);
    const before = web.net.hits(CHALLENGE_SITES.canary);
    const results = await Promise.all(
      ['gone-1.invalid', 'gone-2.invalid', 'gone-3.invalid', 'gone-4.invalid'].map((d) =>
        checkLiveness(web.fetcher, d, { now, canary }),
      ),
    );
    expect(results.map((r) => r.state)).toEqual(['dead', 'dead', 'dead', 'dead']);
    expect(web.net.hits(CHALLENGE_SITES.canary) - before).toBe(1);
  });

  it('never asks the canary when a server answered, or for a failure that needs a working network', async () => {
    const canary = canaryOf(web.fetcher);
    const before = web.net.hits(CHALLENGE_SITES.canary);
    for (const domain of [SITES.news, SITES.unavailable, SITES.forbidden, SITES.badCert, SITES.loop]) {
      const result = await checkLiveness(web.fetcher, domain, { now, canary });
      expect(result.evidence?.kind, domain).not.toBe('network');
    }
    expect(web.net.hits(CHALLENGE_SITES.canary) - before).toBe(0);
  });

  it('answers error / NETWORK_UNAVAILABLE when the canary is down too', async () => {
    const down = stubFetcher({
      'https://a.example/': { error: 'ENOTFOUND' },
      [CANARY_URL]: { error: 'ENOTFOUND' },
    });
    const result = await checkLiveness(down, 'a.example', { now, canary: canaryOf(down) });
    expect(result).toMatchObject({
      alive: false,
      state: 'error',
      http_status: null,
      error_code: 'NETWORK_UNAVAILABLE',
      evidence: {
        kind: 'network',
        network_up: false,
        canary: [{ url: CANARY_URL, error_code: 'ENOTFOUND' }],
      },
    });
    expect(result.error_message).toMatch(
      /^stub ENOTFOUND; the network canary failed too \(.*ENOTFOUND\).*own network looks down/,
    );
    expect(isNetworkUnavailable(result)).toBe(true);
  });

  it('without a canary, a failure keeps its own verdict and no evidence', async () => {
    const down = stubFetcher({
      'https://a.example/': { error: 'ENOTFOUND' },
      [CANARY_URL]: { error: 'ENOTFOUND' },
    });
    expect(await checkLiveness(down, 'a.example', { now, canary: null })).toMatchObject({
      state: 'dead',
      error_code: 'ENOTFOUND',
      evidence: null,
    });
    expect(down.calls).toEqual(['https://a.example/']);
  });
});

describe('a network outage', () => {
  const web = useFakeInternet();
  const opened: Fetcher[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((f) => f.close()));
  });
  const open = (fetcher: Fetcher) => {
    opened.push(fetcher);
    return fetcher;
  };

  it('every connection refused, the canary included: NETWORK_UNAVAILABLE, never dead', async () => {
    const fetcher = open(refusingFetcher(web.net));
    const canary = createNetworkCanary({ fetcher, urls: [CANARY_URL], now });
    for (const domain of [SITES.news, SITES.bare, CHALLENGE_SITES.cfManaged]) {
      const result = await checkLiveness(fetcher, domain, { now, canary });
      expect(result, domain).toMatchObject({
        alive: false,
        state: 'error',
        error_code: 'NETWORK_UNAVAILABLE',
        evidence: {
          kind: 'network',
          network_up: false,
          canary: [{ url: CANARY_URL, error_code: 'ECONNREFUSED' }],
        },
      });
    }
  });

  it('a resolver that answers nothing: NETWORK_UNAVAILABLE for a real-looking domain', async () => {
    const fetcher = open(deadResolverFetcher());
    const canary = createNetworkCanary({ fetcher, urls: ['https://www.google.com/generate_204'], now });
    const result = await checkLiveness(fetcher, 'example.org', { now, canary });
    expect(result).toMatchObject({
      state: 'error',
      error_code: 'NETWORK_UNAVAILABLE',
      evidence: { network_up: false, canary: [{ error_code: 'ENOTFOUND' }] },
    });
  });

  it('the same dead resolver without a canary would have called the domain dead', async () => {
    const result = await checkLiveness(open(deadResolverFetcher()), 'example.org', { now });
    expect(result).toMatchObject({ state: 'dead', error_code: 'ENOTFOUND' });
  });
});
