import { describe, expect, it } from 'vitest';
import { checkLiveness, classifyAnswer, isChallengePage } from '../../../src/engine/liveness.js';
import { CHALLENGE_PAGE } from '../../fixtures/fake-internet/content.js';
import { SITES } from '../../fixtures/fake-internet/index.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const NOW = new Date('2025-03-04T05:06:07.000Z');
const now = () => NOW;

describe('checkLiveness on the fake internet', () => {
  const web = useFakeInternet();

  it('reports a live https site in full', async () => {
    const result = await checkLiveness(web.fetcher, SITES.news, now);
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
    const result = await checkLiveness(web.fetcher, domain, now);
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
    await checkLiveness(web.fetcher, SITES.httpOnly, now);
    expect(web.net.requests.slice(-1)[0]).toMatchObject({ host: SITES.httpOnly, scheme: 'http' });
    expect(web.net.hits(SITES.httpOnly) - before).toBe(1);
  });

  it('refuses a domain that is not a host name without fetching', async () => {
    const stub = stubFetcher({});
    const result = await checkLiveness(stub, 'exa mple.org/path', now);
    expect(result).toMatchObject({ state: 'error', error_code: 'INVALID_URL', alive: false });
    expect(stub.calls).toEqual([]);
  });
});

describe('checkLiveness fallbacks (stubbed)', () => {
  it('does not try http after ENOTFOUND or after any HTTP answer', async () => {
    const gone = stubFetcher({ 'https://a.example/': { error: 'ENOTFOUND' } });
    await checkLiveness(gone, 'a.example', now);
    expect(gone.calls).toEqual(['https://a.example/']);
    const broken = stubFetcher({ 'https://a.example/': { status: 500 } });
    expect(await checkLiveness(broken, 'a.example', now)).toMatchObject({
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
    expect(await checkLiveness(both, 'a.example', now)).toMatchObject({ state: 'error', error_code: 'TLS' });
    expect(both.calls).toEqual(['https://a.example/', 'http://a.example/']);
  });

  it('reports the http failure when it got further than https', async () => {
    const both = stubFetcher({
      'https://a.example/': { error: 'ECONNREFUSED' },
      'http://a.example/': { error: 'REDIRECT_LOOP', status: 302 },
    });
    expect(await checkLiveness(both, 'a.example', now)).toMatchObject({
      state: 'error',
      error_code: 'REDIRECT_LOOP',
    });
  });

  it('marks an http answer that redirects to https as https', async () => {
    const up = stubFetcher({
      'https://a.example/': { error: 'TIMEOUT' },
      'http://a.example/': { status: 200, finalUrl: 'https://www.a.example/' },
    });
    expect(await checkLiveness(up, 'a.example', now)).toMatchObject({ state: 'alive', https: true });
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
