// Social networks, portals and video sites read in one country only, with the language they are read in: a page in
// that language carrying share buttons or links for them is written for readers in that country (Weibo, QQ and
// Douban buttons on a Chinese page; Naver and KakaoTalk on a Korean one). Platforms used across borders (Facebook,
// X, LINE, Telegram, XING, and VK, read in Ukraine, Belarus and Kazakhstan too) are not here. A shipped, dated table; matching is by host or any subdomain of an entry.
// Platforms under a country-code TLD (ok.ru, hatena.ne.jp) are absent: the link's ccTLD already says as much.

/** The day the table was last reviewed. */
export const NATIONAL_PLATFORMS_AS_OF = '2026-11-26';

export interface NationalPlatform {
  country: string;
  /** The language (ISO 639-1) of the readers: a link counts only on a page in it. */
  language: string;
}

// biome-ignore format: a table reads better packed
const TABLE: Readonly<Record<string, NationalPlatform>> = {
  'weibo.com': { country: 'cn', language: 'zh' }, 'qq.com': { country: 'cn', language: 'zh' },
  'douban.com': { country: 'cn', language: 'zh' }, 'zhihu.com': { country: 'cn', language: 'zh' },
  'bilibili.com': { country: 'cn', language: 'zh' }, 'baidu.com': { country: 'cn', language: 'zh' },
  'toutiao.com': { country: 'cn', language: 'zh' }, 'xiaohongshu.com': { country: 'cn', language: 'zh' },
  'youku.com': { country: 'cn', language: 'zh' }, 'renren.com': { country: 'cn', language: 'zh' },
  'plurk.com': { country: 'tw', language: 'zh' },
  'naver.com': { country: 'kr', language: 'ko' }, 'daum.net': { country: 'kr', language: 'ko' },
  'kakao.com': { country: 'kr', language: 'ko' },
  'zalo.me': { country: 'vn', language: 'vi' },
};

/** The national platform a host belongs to (the host or a subdomain of an entry), or null. */
export function nationalPlatformOf(host: string): NationalPlatform | null {
  if (typeof host !== 'string') return null;
  let name = host.trim().toLowerCase().replace(/\.$/, '');
  for (;;) {
    const entry = TABLE[name];
    if (entry !== undefined) return entry;
    const dot = name.indexOf('.');
    if (dot < 0) return null;
    name = name.slice(dot + 1);
  }
}
