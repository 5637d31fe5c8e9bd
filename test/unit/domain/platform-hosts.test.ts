import { describe, expect, it } from 'vitest';
import {
  PLATFORM_KINDS,
  PLATFORM_TABLE_AS_OF,
  platformEntries,
  platformKind,
} from '../../../src/domain/platform-hosts.js';

describe('platformKind', () => {
  it('names the kind of a platform registrable domain', () => {
    expect(platformKind('facebook.com')).toBe('social');
    expect(platformKind('youtube.com')).toBe('video_audio');
    expect(platformKind('doubleclick.net')).toBe('ads_tags');
    expect(platformKind('bit.ly')).toBe('link_shortener');
    expect(platformKind('cloudfront.net')).toBe('cdn_cloud');
    expect(platformKind('wikipedia.org')).toBe('generic_host');
    // Marketplaces and classifieds, and sites written by their users (adverts.ie and pikabu.ru were judged news
    // from their listing pages in the fourth real-page set's tuning half).
    expect(platformKind('www.adverts.ie')).toBe('marketplace');
    expect(platformKind('amazon.co.jp')).toBe('marketplace');
    expect(platformKind('pikabu.ru')).toBe('community');
    expect(platformKind('stackoverflow.com')).toBe('community');
  });

  it('leaves out portals that run a news desk under their own name', () => {
    for (const portal of ['news.yahoo.com', 'msn.com', 'news.qq.com', 'news.naver.com', 'news.mail.ru'])
      expect(platformKind(portal), portal).toBeNull();
    // …but their user-written corners are platforms.
    expect(platformKind('kin.naver.com')).toBe('community');
  });

  it('includes subdomains, and the longest entry wins', () => {
    expect(platformKind('m.facebook.com')).toBe('social');
    expect(platformKind('podcasts.apple.com')).toBe('app_store');
    expect(platformKind('bucket.s3.amazonaws.com')).toBe('cdn_cloud');
    expect(platformKind('play.google.com')).toBe('app_store');
    expect(platformKind('news.google.com')).toBe('generic_host');
    expect(platformKind('WWW.YouTube.com.')).toBe('video_audio');
  });

  it('does not match a name that only ends with the same letters', () => {
    expect(platformKind('notfacebook.com')).toBeNull();
    expect(platformKind('example.de')).toBeNull();
    expect(platformKind('com')).toBeNull();
    expect(platformKind('')).toBeNull();
  });

  it('leaves out hosting platforms whose subdomains are independent sites', () => {
    expect(platformKind('someone.substack.com')).toBeNull();
    expect(platformKind('someone.blogspot.com')).toBeNull();
  });

  it('is dated, and every entry has a known kind and lowercase name', () => {
    expect(PLATFORM_TABLE_AS_OF).toBe('2026-11-26');
    for (const { domain, kind } of platformEntries()) {
      expect(PLATFORM_KINDS).toContain(kind);
      expect(domain).toBe(domain.toLowerCase());
      expect(domain).toMatch(/^[a-z0-9.-]+\.[a-z]{2,}$/);
    }
  });
});
