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
