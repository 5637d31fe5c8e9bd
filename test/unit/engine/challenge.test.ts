import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageTitle, recogniseChallenge, requiredLiterals } from '../../../src/engine/challenge.js';
import { CHALLENGE_SIGNATURES } from '../../../src/engine/challenge-signatures.js';
import { CHALLENGE_VECTORS, CLOUDFLARE_IUAM_PAGE } from '../../fixtures/fake-internet/challenge-pages.js';
import { CHALLENGE_PAGE } from '../../fixtures/fake-internet/content.js';

describe('recogniseChallenge on the challenge vectors', () => {
  it.each(CHALLENGE_VECTORS.map((v) => [v.name, v] as const))('%s', (_name, vector) => {
    const match = recogniseChallenge(vector.status, vector.headers, Buffer.from(vector.body));
    expect(match?.signature ?? null).toBe(vector.expect);
  });

  it('has a vector recognised as every signature', () => {
    const covered = new Set(CHALLENGE_VECTORS.map((v) => v.expect));
    expect(CHALLENGE_SIGNATURES.filter((s) => !covered.has(s.id)).map((s) => s.id)).toEqual([]);
  });
});

describe('the signature list', () => {
  it('has unique ids, each with markers and a named source', () => {
    const ids = CHALLENGE_SIGNATURES.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of CHALLENGE_SIGNATURES) {
      expect(s.markers.length, s.id).toBeGreaterThan(0);
      expect(s.sources.length, s.id).toBeGreaterThan(0);
      for (const m of s.markers) {
        expect(m.pattern.global || m.pattern.sticky, `${s.id} ${m.pattern}`).toBe(false);
        if (m.where === 'header') expect(m.header, s.id).toMatch(/^[a-z0-9-]+$/);
      }
    }
  });
});

describe('docs/liveness.md', () => {
  it('lists every signature of the data, and no other', () => {
    const doc = readFileSync(new URL('../../../docs/liveness.md', import.meta.url), 'utf8');
    const listed = [...doc.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(CHALLENGE_SIGNATURES.map((s) => s.id));
  });
});

describe('what a match says', () => {
  it('names the header that matched', () => {
    const match = recogniseChallenge(403, { 'cf-mitigated': 'challenge' }, Buffer.alloc(0));
    expect(match).toEqual({
      signature: 'cloudflare-challenge',
      vendor: 'Cloudflare',
      page: 'challenge',
      matched: 'header cf-mitigated: challenge',
      strength: 'strong',
    });
  });

  it('names the title, decoded', () => {
    const match = recogniseChallenge(503, {}, Buffer.from(CLOUDFLARE_IUAM_PAGE));
    expect(match?.matched).toBe('title "Just a moment..."');
  });

  it('shows the cookie that matched, not the first one', () => {
    const match = recogniseChallenge(
      403,
      { 'set-cookie': 'lang=en; Path=/, datadome=abc; Max-Age=1; Path=/' },
      Buffer.from('<html></html>'),
    );
    expect(match).toMatchObject({
      signature: 'datadome',
      matched: 'header set-cookie: datadome=abc; Max-Age=1; Path=/',
    });
  });

  it('prefers a strong marker of a later signature over a weak one of an earlier signature', () => {
    // cf-chl (weak, Cloudflare) and captcha-delivery.com (strong, DataDome) on one 403.
    const body = Buffer.from(
      '<div class="cf-chl-x"></div><script src="https://geo.captcha-delivery.com/c.js"></script>',
    );
    expect(recogniseChallenge(403, {}, body)).toMatchObject({ signature: 'datadome', strength: 'strong' });
  });

  it('scans only the head of a huge page', () => {
    const body = Buffer.concat([Buffer.alloc(300 * 1024, ' '), Buffer.from(CHALLENGE_PAGE)]);
    expect(recogniseChallenge(200, {}, body)).toBeNull();
  });
});

describe('pageTitle', () => {
  it.each([
    ['<title>Just a moment...</title>', 'Just a moment...'],
    ['<TITLE lang="en">\n  Access&#32;Denied &amp; more\n</TITLE>', 'Access Denied & more'],
    ['<title>caf&#xe9; &hellip; &nbsp;x</title>', 'café … x'],
    ['<title>&bogus; &#0;</title>', '&bogus; &#0;'],
    // A surrogate is no character: HTML reads it as U+FFFD; a NUL byte is dropped (the title goes into a message).
    ['<title>a&#xD800;b&#55296;c</title>', 'a\uFFFDb\uFFFDc'],
    ['<title>Just\u0000 a moment</title>', 'Just a moment'],
    ['<html><body>no title</body></html>', null],
  ])('%j → %j', (html, title) => {
    expect(pageTitle(html)).toBe(title);
  });
});

describe('requiredLiterals (a body marker is looked for only where its literal is)', () => {
  it('reads the longest run of plain characters at the top level', () => {
    expect(requiredLiterals(/window\._cf_chl_ctx\s*=/)).toEqual(['window._cf_chl_ctx']);
    expect(requiredLiterals(/__cf_chl_(?:f|rt|jschl|captcha)_tk(?:__)?=/)).toEqual(['__cf_chl_']);
    expect(requiredLiterals(/(?:token|captcha)\.awswaf\.com\//i)).toEqual(['.awswaf.com/']);
    expect(requiredLiterals(/Incapsula Incident ID/i)).toEqual(['incapsula incident id']);
  });

  it('leaves out quantified characters, groups, classes, bounds and escape classes', () => {
    expect(requiredLiterals(/abcde?f/)).toEqual(['abcd']);
    expect(requiredLiterals(/abcd{2,5}efgh/)).toEqual(['efgh']);
    expect(requiredLiterals(/ab[\s\S]{0,4000}?c/)).toBeNull();
    expect(requiredLiterals(/\d{1234}xyzw/)).toEqual(['xyzw']);
    expect(requiredLiterals(/abc(?:x|y)+defg/)).toEqual(['defg']);
    expect(requiredLiterals(/x\{1234\}/)).toEqual(['x{1234}']);
  });

  it('reads one run for each top-level alternative', () => {
    expect(requiredLiterals(/distilCaptchaForm|distilCallbackGuard/)).toEqual([
      'distilCaptchaForm',
      'distilCallbackGuard',
    ]);
    expect(
      requiredLiterals(
        /access denied[\s\S]{0,16}sucuri website firewall|sucuri website firewall[\s\S]{0,32}access denied/i,
      ),
    ).toEqual(['sucuri website firewall', 'sucuri website firewall']);
  });

  it('has none when an alternative has no run, for other flags, or for non-ASCII letters under i', () => {
    expect(requiredLiterals(/abcd|ef/)).toBeNull();
    expect(requiredLiterals(/captcha-delivery/u)).toBeNull();
    expect(requiredLiterals(/captcha-delivery/g)).toBeNull();
    expect(requiredLiterals(/éééé/i)).toBeNull();
    expect(requiredLiterals(/éééé/)).toEqual(['éééé']);
  });

  it('is in every body a body marker matches, in every vector', () => {
    for (const vector of CHALLENGE_VECTORS)
      for (const signature of CHALLENGE_SIGNATURES)
        for (const marker of signature.markers) {
          if (marker.where !== 'body') continue;
          const needed = requiredLiterals(marker.pattern);
          if (needed === null || !marker.pattern.test(vector.body)) continue;
          const body = marker.pattern.flags === 'i' ? vector.body.toLowerCase() : vector.body;
          expect(
            needed.some((literal) => body.includes(literal)),
            `${vector.name} ${marker.pattern}`,
          ).toBe(true);
        }
  });
});
