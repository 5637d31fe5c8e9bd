import { describe, expect, it } from 'vitest';
import { newsSchema } from '../../../src/domain/seed-facts.js';
import {
  DECISIVE_WEIGHT,
  judgeNews,
  NEWS_THRESHOLD,
  NEWS_VERDICTS,
  type NewsInput,
  NOT_NEWS_THRESHOLD,
  verdictOfScore,
} from '../../../src/engine/news-verdict.js';
import { bylineNamesSite, editorialLinks, reporterCredits } from '../../../src/engine/newsroom-signals.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';

const NOW = new Date('2026-11-26T12:00:00Z');

function input(host: string, html: string | null, extra: Partial<NewsInput> = {}): NewsInput {
  return {
    host,
    registrableDomain: host.replace(/^www\./, ''),
    homepage: html === null ? null : readPageFacts(html, `https://${host}/`),
    articles: [],
    sitemap: null,
    feeds: [],
    now: NOW,
    ...extra,
  };
}

const stories = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<a href="/2026/11/${10 + (i % 15)}/story-about-topic-${i}">Story ${i} headline</a>`,
  ).join('');
const NEWS_NAV = `<nav><a href="/politics">Politics</a><a href="/business">Business</a><a href="/sport">Sport</a>
  <a href="/world">World</a><a href="/opinion">Opinion</a></nav>`;

const signals = (v: ReturnType<typeof judgeNews>) => v.reasons.map((r) => r.signal);
/** The input of a site whose entry page is an article page (not its front page). */
const onArticlePage = (host: string, html: string) =>
  input(host, null, { homepage: readPageFacts(html, `https://${host}/2026/11/25/a-story-of-the-day`) });

describe('judgeNews', () => {
  it('exports the verdicts and orders its thresholds', () => {
    expect(NEWS_VERDICTS).toEqual(['news', 'maybe', 'not_news']);
    expect(NOT_NEWS_THRESHOLD).toBeLessThan(NEWS_THRESHOLD);
    expect(verdictOfScore(NEWS_THRESHOLD)).toBe('news');
    expect(verdictOfScore((NEWS_THRESHOLD + NOT_NEWS_THRESHOLD) / 2)).toBe('maybe');
    expect(verdictOfScore(NOT_NEWS_THRESHOLD - 0.01)).toBe('not_news');
  });

  it('judges a homepage with section navigation and many dated links news, from the homepage alone', () => {
    const v = judgeNews(input('www.daily.example', `<html>${NEWS_NAV}${stories(40)}</html>`));
    expect(v.verdict).toBe('news');
    expect(signals(v)).toEqual(expect.arrayContaining(['article_links_many', 'sections_many']));
    const sections = v.reasons.find((r) => r.signal === 'sections_many')!;
    expect(sections.evidence).toContain('politics (politics)');
    expect(v.reasons.find((r) => r.signal === 'article_links_many')!.evidence).toContain('40 internal links');
  });

  it('reads a published time as an article published on a page typed article, or untyped at an article-shaped URL', () => {
    const dated =
      '<html><head><meta itemprop="datePublished" content="2020-10-30T18:28:00+03:00"></head></html>';
    const untyped = judgeNews(onArticlePage('www.kibris.example', dated));
    expect(untyped.reasons.find((r) => r.signal === 'article_published')?.evidence).toBe(
      'an article-shaped URL published 2020-10-30T18:28:00+03:00 on https://www.kibris.example/2026/11/25/a-story-of-the-day',
    );
    const typed = judgeNews(
      onArticlePage(
        'www.kibris.example',
        dated.replace('<head>', '<head><meta property="og:type" content="article">'),
      ),
    );
    expect(typed.reasons.find((r) => r.signal === 'article_published')?.evidence).toMatch(
      /^og:type article published/,
    );
    // A front page's time is not an article's, nor is one on a page typed otherwise (a shop's product, a website).
    expect(signals(judgeNews(input('www.kibris.example', dated)))).not.toContain('article_published');
    const product = dated.replace('<head>', '<head><meta property="og:type" content="product">');
    expect(signals(judgeNews(onArticlePage('www.kibris.example', product)))).not.toContain(
      'article_published',
    );
  });

  it('reads the date and clock time an article shows as its published time when its markup gives none', () => {
    const shown = '<html><body><h1>Headline</h1><p>2020-02-19 20:29</p><p>Story.</p></body></html>';
    const v = judgeNews(onArticlePage('www.xinhua.example', shown));
    expect(v.reasons.find((r) => r.signal === 'article_published')?.evidence).toBe(
      'an article-shaped URL showing the time "2020-02-19 20:29" on https://www.xinhua.example/2026/11/25/a-story-of-the-day',
    );
    expect(signals(v)).not.toContain('nothing_dated');
    // The markup's time, when there is one, is the one reported; a front page's shown time is no article's.
    const marked = shown.replace(
      '<html>',
      '<html><head><meta property="article:published_time" content="2020-02-19T12:29:00Z"></head>',
    );
    expect(
      judgeNews(onArticlePage('www.xinhua.example', marked)).reasons.find(
        (r) => r.signal === 'article_published',
      )?.evidence,
    ).toContain('published 2020-02-19T12:29:00Z');
    expect(signals(judgeNews(input('www.xinhua.example', shown)))).not.toContain('article_published');
    // A date without a clock time is not a stamp.
    const undated = shown.replace('2020-02-19 20:29', '2020-02-19');
    expect(signals(judgeNews(onArticlePage('www.xinhua.example', undated)))).not.toContain(
      'article_published',
    );
  });

  it('counts a CJK staff reporter or desk editor credit as a newsroom sign, not the bare word', () => {
    for (const credit of [
      '【责任编辑：严玉洁】',
      '（记者宋晨、田中全）',
      '記者：梁子健',
      '〔記者巫其倫／台北報導〕',
      '新华社记者 才扬 摄',
      '배윤경 기자 bykj@mk.co.kr',
      '[서울=뉴시스] 홍길동 기자 = 정부는',
    ])
      expect(reporterCredits(`<p>${credit}</p> 본문`), credit).toHaveLength(1);
    for (const text of [
      '気象庁は記者会見で「地震はいつ起きて',
      '海外記者「東京五輪中の居酒屋の様子',
      '亚洲签约记者会',
      '토론광장 기자편집회의 기자증 신청 기자 자료실',
      'a reporter and an editor',
    ])
      expect(reporterCredits(text), text).toEqual([]);
    // Article links, a shown time and a credit: news, where without the credit no newsroom sign holds it at maybe.
    const page = (credit: string) =>
      `<html><body><p>2020-02-19 20:29</p>${stories(16)}<p>${credit}</p></body></html>`;
    const credited = judgeNews(onArticlePage('www.xinhua.example', page('责任编辑： 焦鹏')));
    expect(credited.verdict).toBe('news');
    expect(credited.reasons.find((r) => r.signal === 'reporter_credit')?.evidence).toContain(
      '"责任编辑： 焦鹏"',
    );
    const uncredited = judgeNews(onArticlePage('www.xinhua.example', page('')));
    expect(uncredited.verdict).toBe('maybe');
    expect(signals(uncredited)).toContain('no_newsroom_sign');
  });

  it('judges an article entry page with NewsArticle markup and a byline news', () => {
    const html = `<meta property="og:type" content="article"><meta property="article:published_time" content="2026-11-25T08:00:00Z">
      <script type="application/ld+json">{"@type":"NewsArticle","headline":"x"}</script>
      <nav><a href="/politik">Politik</a><a href="/wirtschaft">Wirtschaft</a></nav><p>Von Anna Muster</p>`;
    const v = judgeNews(input('zeitung.example', html));
    expect(v.verdict).toBe('news');
    expect(v.reasons.find((r) => r.signal === 'news_schema')!.evidence).toContain('NewsArticle');
  });

  it('gets more certain with a news sitemap and a frequent feed of articles', () => {
    const html = `<html>${stories(8)}</html>`;
    const alone = judgeNews(input('local.example', html));
    const helped = judgeNews(
      input('local.example', html, {
        sitemap: { exists: true, news: true },
        feeds: [
          {
            url: 'https://local.example/feed',
            role: 'main',
            item_count: 30,
            items_per_day: 6,
            item_urls: ['https://local.example/2026/11/25/council-meets-again-today'],
            newest_item_at: '2026-11-26T08:00:00Z',
          },
        ],
      }),
    );
    expect(alone.verdict).not.toBe('news');
    expect(helped.score).toBeGreaterThan(alone.score);
    expect(helped.verdict).toBe('news');
  });

  it('judges a recipe blog with a news sitemap and a daily feed not news', () => {
    const html = `<script type="application/ld+json">{"@type":"Recipe","name":"Cookies"}</script>
      <div class="wprm-recipe">Ingredients, Prep Time</div>${stories(10)}`;
    const v = judgeNews(
      input('cookies.example', html, {
        sitemap: { exists: true, news: true },
        feeds: [
          {
            url: 'https://cookies.example/feed',
            role: 'main',
            item_count: 10,
            items_per_day: 1,
            newest_item_at: '2026-11-26T00:00:00Z',
          },
        ],
      }),
    );
    expect(v.verdict).toBe('not_news');
    expect(signals(v)).toEqual(
      expect.arrayContaining(['recipe_schema', 'recipe_plugin', 'news_sitemap', 'frequent_feed']),
    );
  });

  it('judges a shop not news', () => {
    const html = `<script type="application/ld+json">{"@type":"Product","offers":{"@type":"Offer","price":"9"}}</script>
      <meta property="og:type" content="product"><button>Add to cart</button><a href="/checkout">Checkout</a>`;
    const v = judgeNews(input('shop.example', html));
    expect(v.verdict).toBe('not_news');
    expect(signals(v)).toEqual(expect.arrayContaining(['product_schema', 'shop_signals_many']));
  });

  it("counts a company's sales links against: one call to buy, or two catalogue menu words; one menu word not", () => {
    const blog = `<nav><a href="/business">Business</a><a href="/technology">Technology</a></nav>${stories(20)}<p>By Ann Lee</p>`;
    const plain = judgeNews(input('vendor.example', `<html>${blog}</html>`));
    expect(signals(plain)).not.toContain('company_sales_links');
    const demo = judgeNews(input('vendor.example', `<html>${blog}<a href="/demo">Request a demo</a></html>`));
    expect(signals(demo)).toContain('company_sales_links');
    expect(demo.score).toBeLessThan(plain.score);
    expect(demo.reasons.find((r) => r.signal === 'company_sales_links')!.evidence).toContain(
      'sales: request a demo',
    );
    const menu = (words: string[]) =>
      judgeNews(
        input(
          'vendor.example',
          `<html>${blog}${words.map((w) => `<a href="/${w}">${w}</a>`).join('')}</html>`,
        ),
      );
    expect(signals(menu(['Products', 'Solutions']))).toContain('company_sales_links');
    expect(signals(menu(['Products']))).not.toContain('company_sales_links');
    // A newsroom's subscription offer is not a sales call: the words must be the link's whole text.
    expect(
      signals(
        judgeNews(
          input('daily.example', `<html>${blog}<a href="/s">See our pricing for subscribers</a></html>`),
        ),
      ),
    ).not.toContain('company_sales_links');
  });

  it('counts a handful of story links against a front page, for news on an article page', () => {
    const few = `<html>${NEWS_NAV.replace('<a href="/opinion">Opinion</a>', '')}${stories(8)}</html>`;
    const front = judgeNews(input('city.example', few));
    expect(signals(front)).toContain('front_page_few_stories');
    expect(signals(front)).not.toContain('article_links_few');
    expect(front.reasons.find((r) => r.signal === 'front_page_few_stories')!.weight).toBeLessThan(0);
    for (const path of ['/en/', '/de-at', '/home', '/index.html'])
      expect(
        signals(
          judgeNews(
            input('city.example', null, { homepage: readPageFacts(few, `https://city.example${path}`) }),
          ),
        ),
      ).toContain('front_page_few_stories');
    // The same links on an article page are its related stories: they count for news.
    const article = judgeNews(
      input('city.example', null, {
        homepage: readPageFacts(few, 'https://city.example/2026/11/20/council-story'),
      }),
    );
    expect(signals(article)).toContain('article_links_few');
    expect(signals(article)).not.toContain('front_page_few_stories');
    expect(article.score).toBeGreaterThan(front.score);
    // A front page listing dozens of stories is untouched.
    expect(signals(judgeNews(input('daily.example', `<html>${NEWS_NAV}${stories(40)}</html>`)))).toContain(
      'article_links_many',
    );
  });

  it('keeps a front page judged by its layout alone in the maybe band, unless the layout is strong', () => {
    const portal = judgeNews(
      input(
        'portal.example',
        `<html>${NEWS_NAV.replace(/<a href="\/(world|opinion|sport)">\w+<\/a>/g, '')}${stories(16)}</html>`,
      ),
    );
    expect(signals(portal)).toContain('layout_only_front');
    expect(portal.verdict).toBe('maybe');
    expect(portal.reasons.find((r) => r.signal === 'layout_only_front')!.evidence).toContain(
      'article_links_some',
    );
    // A byline beside the same layout is not the layout alone.
    const signed = judgeNews(
      input(
        'portal.example',
        `<html>${NEWS_NAV.replace(/<a href="\/(world|opinion|sport)">\w+<\/a>/g, '')}${stories(16)}<p class="byline">By Ann Lee</p></html>`,
      ),
    );
    expect(signals(signed)).not.toContain('layout_only_front');
    // Dozens of stories under a full menu stay news: the reason takes at most 1.25 off.
    const daily = judgeNews(input('daily.example', `<html>${NEWS_NAV}${stories(40)}</html>`));
    expect(daily.verdict).toBe('news');
    expect(daily.reasons.find((r) => r.signal === 'layout_only_front')?.weight ?? 0).toBeGreaterThanOrEqual(
      -1.25,
    );
    // Dozens of stories under three desks are a company's, a bank's or a magazine's front as often: maybe (session 25).
    const thinner = judgeNews(
      input(
        'portal.example',
        `<html>${NEWS_NAV.replace(/<a href="\/(world|opinion)">\w+<\/a>/g, '')}${stories(40)}</html>`,
      ),
    );
    expect(signals(thinner)).toEqual(
      expect.arrayContaining(['article_links_many', 'sections_some', 'layout_only_front']),
    );
    expect(thinner.verdict).toBe('maybe');
    // The same page as an article page is not a front.
    expect(
      signals(judgeNews(onArticlePage('portal.example', `<html>${NEWS_NAV}${stories(16)}</html>`))),
    ).not.toContain('layout_only_front');
  });

  it("keeps a front whose dated items are days apart in the maybe band: a blog's or a university's pace", () => {
    /** `count` stories under a full menu, each with a <time> `gapHours` after the one before. */
    const front = (count: number, gapHours: number) =>
      `<html>${NEWS_NAV}${stories(40)}${Array.from(
        { length: count },
        (_, i) =>
          `<time datetime="${new Date(NOW.getTime() - i * gapHours * 3_600_000).toISOString()}">x</time>`,
      ).join('')}<p class="byline">By Ann Lee</p></html>`;
    const weekly = judgeNews(input('campus.example', front(10, 24 * 7)));
    expect(weekly.verdict).toBe('maybe');
    const slow = weekly.reasons.find((r) => r.signal === 'slow_front')!;
    expect(slow.evidence).toContain(
      '10 dated items on the front page https://campus.example/, a median of 7 days apart',
    );
    // The layout and the dates count for nothing; what is left (the byline) still counts.
    expect(slow.weight).toBeLessThan(-1);
    // A newsroom's front dates its stories hours apart, and a handful of dates says no pace.
    expect(signals(judgeNews(input('daily.example', front(10, 3))))).not.toContain('slow_front');
    expect(judgeNews(input('daily.example', front(10, 3))).verdict).toBe('news');
    expect(signals(judgeNews(input('campus.example', front(7, 24 * 7))))).not.toContain('slow_front');
    // A feed publishing every day outranks the front's dates.
    const feed = {
      url: 'https://campus.example/feed/',
      role: 'main',
      item_count: 30,
      items_per_day: 6,
      newest_item_at: NOW.toISOString(),
    };
    expect(signals(judgeNews(input('campus.example', front(10, 24 * 7), { feeds: [feed] })))).not.toContain(
      'slow_front',
    );
    // An article page's dates are its related stories', not a front's pace.
    expect(signals(judgeNews(onArticlePage('campus.example', front(10, 24 * 7))))).not.toContain(
      'slow_front',
    );
  });

  it("takes a front whose dated items are hours apart for a newsroom's: its story links are no longer held at maybe", () => {
    /** `count` stories and no menu, each with a <time> `gapHours` after the one before: HealthWire's front. */
    const front = (count: number, gapHours: number) =>
      `<html>${stories(40)}${Array.from(
        { length: count },
        (_, i) =>
          `<time datetime="${new Date(NOW.getTime() - i * gapHours * 3_600_000).toISOString()}">x</time>`,
      ).join('')}<p class="byline">By Ann Lee</p></html>`;
    const daily = judgeNews(input('health.example', front(10, 2)));
    expect(daily.verdict).toBe('news');
    expect(signals(daily)).not.toContain('no_newsroom_sign');
    expect(daily.reasons.find((r) => r.signal === 'frequent_front')!.evidence).toContain(
      '10 dated items on the front page https://health.example/, a median of 2 hours apart',
    );
    // Stories a day apart, or too few dates to say a pace, are no newsroom's sign: held at maybe as before.
    for (const [count, gapHours] of [
      [10, 24],
      [7, 2],
    ] as const) {
      const judged = judgeNews(input('health.example', front(count, gapHours)));
      expect(signals(judged)).not.toContain('frequent_front');
      expect(signals(judged)).toContain('no_newsroom_sign');
      expect(judged.verdict).toBe('maybe');
    }
    // An article page's dates are its related stories', not a front's pace.
    expect(signals(judgeNews(onArticlePage('health.example', front(10, 2))))).not.toContain('frequent_front');
  });

  it("reads a recipe site's front by its menu of courses and diets: six of them, not a newspaper's few", () => {
    const menu = (words: string[]) => words.map((w, i) => `<a href="/c${i}">${w}</a>`).join('');
    // A recipe magazine's front (marthastewart.com, food.com): dozens of story-shaped links, bylines, a menu of
    // courses, and no recipe card on the page.
    const front = (words: string[]) =>
      judgeNews(
        input('kitchen.example', `<html><nav>${menu(words)}</nav>${stories(40)}<p>By Ann Lee</p></html>`),
      );
    const recipes = front([
      'Breakfast',
      'Dinner recipes',
      'Side Dishes',
      'Desserts',
      'Slow Cooker',
      'Vegetarian',
    ]);
    expect(signals(recipes)).toContain('recipe_menu');
    expect(recipes.verdict).toBe('not_news');
    expect(recipes.reasons.find((r) => r.signal === 'recipe_menu')!.evidence).toContain(
      "a recipe site's menu on https://kitchen.example/: breakfast, dinner, side dishes",
    );
    // The same in Italian; a cookie-policy link counts for nothing.
    const italian = ['Ricette', 'Antipasti', 'Primi piatti', 'Secondi piatti', 'Contorni', 'Dolci'];
    expect(signals(front(italian))).toContain('recipe_menu');
    expect(signals(front([...italian.slice(0, 5), 'Cookies']))).not.toContain('recipe_menu');
    // A newspaper's food menu beside its desks (corriere.it lists five): no recipe site.
    const paper = judgeNews(
      input(
        'paper.example',
        `<html>${NEWS_NAV}${menu(['Ricette', 'Dolci', 'Antipasti', 'Contorni', 'Insalate'])}${stories(40)}</html>`,
      ),
    );
    expect(signals(paper)).not.toContain('recipe_menu');
    expect(paper.verdict).toBe('news');
    // Another site's links are not its menu.
    const elsewhere = ['Breakfast', 'Lunch', 'Dinner', 'Desserts', 'Salads', 'Soups']
      .map((w, i) => `<a href="https://other.example/c${i}">${w}</a>`)
      .join('');
    expect(
      signals(judgeNews(input('kitchen.example', `<html>${elsewhere}${stories(40)}</html>`))),
    ).not.toContain('recipe_menu');
  });

  it("reads a sports desk's menu of sports and leagues as a newsroom's, not beside a shop's sign", () => {
    const desks = ['NFL', 'NBA', 'MLB', 'NHL', 'Golf'].map((w, i) => `<a href="/s${i}">${w}</a>`).join('');
    // A sports site's article page (cbssports.com, bleacherreport.com): its story links, a byline and a time, and
    // the menu of its desks, which lifts the no_newsroom_sign bound.
    const story = (extra = '') =>
      judgeNews(
        onArticlePage(
          'sports.example',
          `<html><head><meta property="og:type" content="article"><meta property="article:published_time" content="2026-11-25T10:00:00Z"></head><nav>${desks}</nav>${stories(16)}<p>By Ann Lee</p>${extra}</html>`,
        ),
      );
    const judged = story();
    expect(signals(judged)).toContain('sports_desks');
    expect(signals(judged)).not.toContain('no_newsroom_sign');
    expect(judged.verdict).toBe('news');
    expect(judged.reasons.find((r) => r.signal === 'sports_desks')!.evidence).toContain(
      "a newsroom's sports desk menu on https://sports.example/2026/11/25/a-story-of-the-day: nfl, nba, mlb, nhl, golf",
    );
    // A sports shop's menu is the same list: with a cart beside it, it says nothing.
    expect(signals(story('<a href="/cart">Cart</a>'))).not.toContain('sports_desks');
  });

  it("reads a link to the author's own page, in the first person or by a first name, as a personal site's", () => {
    const blog = (anchor: string, href = '/about') =>
      judgeNews(
        input(
          'writer.example',
          `<html><a href="${href}">${anchor}</a>${stories(20)}<p>By Ann Lee</p></html>`,
        ),
      );
    for (const anchor of ['About me', 'Über mich', 'Chi sono', 'O mnie', 'Hakkımda', 'Meet Joy']) {
      const judged = blog(anchor);
      expect(signals(judged)).toContain('about_me_link');
      expect(judged.verdict).toBe('not_news');
    }
    expect(blog('About me').reasons.find((r) => r.signal === 'about_me_link')!.evidence).toContain(
      '"About me" https://writer.example/about',
    );
    // A newsroom's pages about itself and its writers, and another site's page, are not it.
    for (const anchor of ['About us', 'About the author', 'Meet the team', 'Meet us'])
      expect(signals(blog(anchor))).not.toContain('about_me_link');
    expect(signals(blog('About me', 'https://other.example/about'))).not.toContain('about_me_link');
  });

  it("reads a company's or a school's menu about itself: three of its items, not one", () => {
    const site = (items: string[]) =>
      judgeNews(
        input(
          'firm.example',
          `<html><nav>${items.map((w, i) => `<a href="/m${i}">${w}</a>`).join('')}</nav>${NEWS_NAV}${stories(20)}<p>By Ann Lee</p></html>`,
        ),
      );
    const firm = site(['All Industries', 'All Services', 'Current Vacancies', 'Executive Biographies']);
    expect(signals(firm)).toContain('company_menu');
    expect(firm.reasons.find((r) => r.signal === 'company_menu')!.evidence).toContain(
      "a company's own menu on https://firm.example/: all industries, all services, current vacancies",
    );
    expect(firm.score).toBeLessThan(site([]).score);
    expect(signals(site(['Clientes', 'Inversores', 'Sedes']))).toContain('company_menu');
    // A listed publisher's investor pages or a paper's reader services: one or two items, no company's menu.
    expect(signals(site(['Investor relations', 'Servicios']))).not.toContain('company_menu');
    expect(site(['Investor relations', 'Servicios']).verdict).toBe('news');
    // A school's or a course seller's menu the same way (study.com, ncbs.res.in), not a newsroom's "Campus".
    const school = site(['Courses', 'Degrees', 'Certificates', 'Test prep']);
    expect(signals(school)).toContain('school_menu');
    expect(school.reasons.find((r) => r.signal === 'school_menu')!.evidence).toContain(
      "a school's or course seller's menu on https://firm.example/: courses, degrees, certificates, test prep",
    );
    expect(signals(site(['Admissions', 'Alumni', 'Faculty']))).toContain('school_menu');
    expect(signals(site(['Campus', 'Research', 'Students']))).not.toContain('school_menu');
  });

  it("counts an organisation's own menu against: two of its words, not one, and never a newsroom's Donate or Events", () => {
    const site = `<nav><a href="/world">World</a><a href="/politics">Politics</a></nav>${stories(20)}<p>By Ann Lee</p>`;
    const judged = (words: string[]) =>
      judgeNews(
        input(
          'rights.example',
          `<html>${site}${words.map((w, i) => `<a href="/m${i}">${w}</a>`).join('')}</html>`,
        ),
      );
    const plain = judged([]);
    const ngo = judged(['Get involved', 'Publications', 'Campaigns']);
    expect(signals(ngo)).toContain('organisation_menu');
    expect(ngo.score).toBeLessThan(plain.score);
    expect(ngo.reasons.find((r) => r.signal === 'organisation_menu')!.evidence).toContain(
      'organisation: get involved',
    );
    // Neither is it a company's sales menu.
    expect(signals(ngo)).not.toContain('company_sales_links');
    expect(signals(judged(['Publikationen', 'Mitglied werden']))).toContain('organisation_menu');
    // A research centre's projects beside its publications, a company's team beside who it is (crfr.ac.uk, expapp.com).
    expect(signals(judged(['Current projects', 'Publications']))).toContain('organisation_menu');
    expect(signals(judged(['Who we are', 'Our team']))).toContain('organisation_menu');
    expect(signals(judged(['Publications']))).not.toContain('organisation_menu');
    // A non-profit newsroom's menu: none of these words is an organisation's.
    expect(signals(judged(['Donate', 'Membership', 'Events', 'Careers']))).not.toContain('organisation_menu');
    // The words must be the link's whole text.
    expect(signals(judged(['Our work this week', 'Campaigns we covered in 2024']))).not.toContain(
      'organisation_menu',
    );
  });

  it('judges a platform not news whatever its page says, with the platform kind as evidence', () => {
    const v = judgeNews(input('www.youtube.com', `<html>${NEWS_NAV}${stories(40)}</html>`));
    expect(v).toEqual({
      verdict: 'not_news',
      score: 0,
      reasons: [
        {
          signal: 'platform_host',
          weight: DECISIVE_WEIGHT,
          evidence: 'youtube.com is a platform (video_audio)',
        },
      ],
    });
    // Stored and answered as JSON: the verdict comes back as it was, and the seed's schema takes it.
    expect(newsSchema.parse(JSON.parse(JSON.stringify(v)))).toEqual(v);
  });

  it('judges a parked page not news', () => {
    const v = judgeNews(
      input(
        'parked.example',
        '<h1>This domain is for sale</h1><a href="https://sedo.com/">Make an offer</a>',
      ),
    );
    expect(v.verdict).toBe('not_news');
    expect(signals(v)).toContain('parked');
  });

  it('counts against a page where nothing is dated, and against a government host', () => {
    const empty = judgeNews(input('company.example', '<h1>Welcome</h1><a href="/about">About</a>'));
    expect(signals(empty)).toContain('nothing_dated');
    expect(empty.verdict).toBe('not_news');
    const gov = judgeNews(input('www.ministry.gov.uk', `<html>${stories(40)}</html>`));
    expect(signals(gov)).toContain('public_body_host');
  });

  it('counts newsroom publishing meta, Parse.ly alone excepted', () => {
    const one = judgeNews(input('paper.example', '<meta name="news_keywords" content="a, b">'));
    expect(one.reasons.find((r) => r.signal === 'publisher_meta_one')?.weight).toBe(0.5);
    const many = judgeNews(
      input(
        'paper.example',
        '<meta name="news_keywords" content="a"><meta name="cXenseParse:pageclass" content="article">',
      ),
    );
    expect(many.reasons.find((r) => r.signal === 'publisher_meta_many')?.evidence).toContain('cxenseparse');
    expect(many.score).toBeGreaterThan(one.score);
    const parsely = judgeNews(input('agency.example', '<meta name="parsely-title" content="x">'));
    expect(signals(parsely).some((s) => s.startsWith('publisher_meta'))).toBe(false);
  });

  it('does not count a live blog as a blog when the page declares a news type', () => {
    const html = `<script type="application/ld+json">[{"@type":"LiveBlogPosting"},{"@type":"BlogPosting"}]</script>`;
    expect(signals(judgeNews(input('n.example', html)))).not.toContain('blog_schema');
  });

  it('does not count a fast feed whose items are not articles', () => {
    const v = judgeNews(
      input('shop2.example', null, {
        feeds: [
          {
            url: 'https://shop2.example/products.rss',
            role: 'main',
            item_count: 50,
            items_per_day: 20,
            item_urls: [
              'https://shop2.example/product/red-shirt',
              'https://shop2.example/product/blue-shirt',
            ],
            newest_item_at: '2026-11-26T00:00:00Z',
          },
        ],
      }),
    );
    expect(signals(v)).not.toContain('very_frequent_feed');
  });

  it('weighs a wire credit and links to a newsroom reader pages for news, with the byline and links as evidence', () => {
    const html = `<span class="byline">By Jane Roe, Associated Press</span>
      <footer><a href="/corrections">Corrections</a><a href="/about/standards">Editorial Standards</a>
      <a href="/newsroom">Newsroom</a></footer>`;
    const v = judgeNews(input('paper.example', html));
    const wire = v.reasons.find((r) => r.signal === 'wire_credit')!;
    expect(wire.evidence).toContain('Associated Press');
    const editorial = v.reasons.find((r) => r.signal === 'editorial_links')!;
    expect(editorial.evidence).toContain('"Corrections" https://paper.example/corrections');
    expect(editorial.evidence).toContain('Editorial Standards');
    expect(editorial.evidence).not.toContain('Newsroom');
    expect(v.score).toBeGreaterThan(judgeNews(input('paper.example', '<p>x</p>')).score);
  });

  it("does not read a company's newsroom, ethics or tips pages, or a lower-case agency name, as a newsroom's", () => {
    const html = `<span class="author">Dr. Apa Lusardi</span><footer><a href="/newsroom">Newsroom</a>
      <a href="/ethics">Ethics</a><a href="/tips">Tips</a><a href="/standards">Standards</a></footer>`;
    const s = signals(judgeNews(input('company.example', html)));
    expect(s).not.toContain('editorial_links');
    expect(s).not.toContain('wire_credit');
  });

  // A newsroom's reader pages as its menus name them in other languages, and words that look alike but are not.
  const EDITORIAL_ANCHORS: ReadonlyArray<[string, boolean]> = [
    ['Redakcja', true],
    ['Redacció', true],
    ['Редакция', true],
    ['Редакція', true],
    ['Szerkesztőség', true],
    ['La redazione', true],
    ['Künye', true],
    ['Cartas al director', true],
    ['Leserbriefe', true],
    ['Hemeroteca', true],
    ['Edição impressa', true],
    ['Wydanie cyfrowe', true],
    ['Digital Edition', true],
    ['Print Replica', true],
    ['Versión impresa', true],
    ['Edición digital', true],
    ['Digitale Zeitung', true],
    ['E-avis', true],
    ['eAvis', true],
    ['E-tidning', true],
    ['Digitale krant', true],
    ['Edicola', true],
    ['電子版', true],
    ['紙面', true],
    ['Digital', false],
    ['Edición', false],
    ['Impressum', false],
    ['Editorial Board', false],
    ['Editorial Team', false],
    ['Toimitus', false],
    ['Σύνταξη', false],
    ['Código de ética', false],
    ['Redakcja poleca', false],
  ];
  it.each(EDITORIAL_ANCHORS)('reads the anchor "%s" as a newsroom reader page: %s', (anchor, expected) => {
    const links = [{ url: 'https://paper.example/x', anchor, internal: true }];
    expect(editorialLinks(links).length > 0).toBe(expected);
  });

  it("reads wire copy's dateline in the text as a wire credit, only before a dash", () => {
    const wire = (html: string) =>
      judgeNews(input('paper.example', html)).reasons.find((r) => r.signal === 'wire_credit');
    expect(wire('<p>BERLIN (dpa) – Die Regierung hat am Montag beschlossen.</p>')?.evidence).toContain(
      '"BERLIN (dpa) –"',
    );
    expect(wire('<p>(Reuters) - Shares rose on Monday.</p>')?.evidence).toContain('(Reuters) -');
    // Advanced Placement, a citation style: the bracket without wire copy's dash.
    expect(wire('<p>Take the (AP) exam; cite in (APA) style.</p>')).toBeUndefined();
  });

  it('counts a "most read" list as a newsroom sign in several languages, not "most popular" or "almost read"', () => {
    const judged = (html: string) => judgeNews(input('paper.example', html));
    for (const heading of [
      'Most Read',
      'Meistgelesen',
      'Lo más leído',
      'Les plus lus',
      '많이 본 뉴스',
      'アクセスランキング',
    ])
      expect(signals(judged(`<h3>${heading}</h3><ol><li>x</li></ol>`)), heading).toContain('most_read_list');
    expect(
      judged('<h3>Meistgelesen</h3>').reasons.find((r) => r.signal === 'most_read_list')!.evidence,
    ).toContain('"meistgelesen"');
    for (const text of ['Most Popular', 'Most viewed recipes', 'I have almost read it all'])
      expect(signals(judged(`<h3>${text}</h3>`)), text).not.toContain('most_read_list');
    // Beside a cart (two shop signs), a "most viewed" box is a shop's bestsellers (a Korean deals page, tmon.co.kr).
    const deals = '<h3>많이 본</h3><ol><li>x</li></ol><a href="/cart">장바구니</a>';
    expect(signals(judged(deals))).toEqual(expect.arrayContaining(['shop_signals_many']));
    expect(signals(judged(deals))).not.toContain('most_read_list');
    expect(signals(judged('<h3>많이 본</h3><a href="/cart">Cart</a>'))).toContain('most_read_list');
  });

  it("takes one shop sign on a newsroom's front for the paper's own shop, and counts it anywhere else", () => {
    const basket = '<a href="/sklep">Koszyk</a>';
    const front = judgeNews(input('www.tabloid.example', `<html>${NEWS_NAV}${stories(40)}${basket}</html>`));
    const shop = front.reasons.find((r) => r.signal === 'shop_signals_one')!;
    expect(shop.weight).toBe(0);
    expect(shop.evidence).toContain('its own shop');
    expect(front.verdict).toBe('news');
    // A thinner front, or the same basket on an article page, keeps the sign's weight.
    const thin = judgeNews(input('www.tabloid.example', `<html>${NEWS_NAV}${stories(16)}${basket}</html>`));
    expect(thin.reasons.find((r) => r.signal === 'shop_signals_one')!.weight).toBeLessThan(0);
    const article = judgeNews(
      onArticlePage('www.tabloid.example', `<html>${NEWS_NAV}${stories(40)}${basket}</html>`),
    );
    expect(article.reasons.find((r) => r.signal === 'shop_signals_one')!.weight).toBeLessThan(0);
    // Beside a shop's own menu the sign is the shop's, whatever the front's layout (a farm store's, session 25).
    const store = judgeNews(
      input(
        'www.store.example',
        `<html>${NEWS_NAV}${stories(40)}${basket}<a href="/order-status">Order status</a><a href="/sale">Sale</a></html>`,
      ),
    );
    expect(signals(store)).toContain('shop_menu');
    expect(store.reasons.find((r) => r.signal === 'shop_signals_one')!.weight).toBeLessThan(0);
  });

  it('counts a fact-check for news and a how-to or health reference against, unless a news type is declared', () => {
    const check = judgeNews(
      input('checks.example', `<script type="application/ld+json">{"@type":"ClaimReview"}</script>`),
    );
    expect(signals(check)).toContain('fact_check_schema');
    const guide = judgeNews(
      input('guides.example', `<script type="application/ld+json">{"@type":"HowTo"}</script>`),
    );
    expect(guide.reasons.find((r) => r.signal === 'guide_schema')!.evidence).toContain('HowTo');
    const both = `<script type="application/ld+json">[{"@type":"NewsArticle"},{"@type":"FAQPage"}]</script>`;
    expect(signals(judgeNews(input('paper.example', both)))).not.toContain('guide_schema');
  });

  it("does not count the site's own name signing its pages as a byline", () => {
    // Session 25: a 2023 crawl's company fronts carry their own name as meta author or JSON-LD author.
    const own = (host: string, title: string, author: string) =>
      signals(
        judgeNews(
          input(
            host,
            `<html><head><title>${title}</title><meta name="author" content="${author}"></head></html>`,
          ),
        ),
      );
    expect(own('tetratech.example', 'Consulting and Engineering Firm', 'Tetratech')).not.toContain('bylines');
    expect(own('tuv.example', 'TÜV Rheinland - Home', 'TÜV Rheinland')).not.toContain('bylines');
    expect(own('paper.example', 'The Daily Paper', 'Jane Doe')).toContain('bylines');
    expect(
      bylineNamesSite('By Tetra Tech', {
        url: 'https://www.tetratech.example/',
        title: null,
        og_site_name: null,
      }),
    ).toBe(true);
    // Fewer than four letters are not compared: "By AP" on ap.example is a credit, read elsewhere.
    expect(bylineNamesSite('AP', { url: 'https://ap.example/', title: null, og_site_name: null })).toBe(
      false,
    );
  });

  it('counts a byline that names no writer against, and not as a byline', () => {
    const v = judgeNews(input('blog.example', '<span class="byline">by admin</span>'));
    expect(signals(v)).toContain('placeholder_byline');
    expect(signals(v)).not.toContain('bylines');
  });

  it("counts a page whose story links point mostly to other sites against, as an aggregator's", () => {
    const elsewhere = Array.from(
      { length: 12 },
      (_, i) => `<a href="https://site${i}.example/2026/11/20/story-about-topic-${i}">Story ${i}</a>`,
    ).join('');
    const aggregator = judgeNews(input('links.example', `<html>${elsewhere}${stories(3)}</html>`));
    expect(aggregator.reasons.find((r) => r.signal === 'aggregator_links')!.evidence).toContain(
      'story links to 12 other sites against 3 of its own',
    );
    // A newsroom that cites as many sites but links to more of its own stories is no aggregator.
    const newsroom = judgeNews(input('paper.example', `<html>${elsewhere}${stories(8)}</html>`));
    expect(signals(newsroom)).not.toContain('aggregator_links');
  });

  it("counts a page of categories with their item counts against, as a catalogue's, and not a newsroom's archive box", () => {
    const categories = (n: number) =>
      Array.from({ length: n }, (_, i) => `<a href="/ads/category-${i}">Category ${i} (${100 + i})</a>`).join(
        '',
      );
    const board = judgeNews(
      input('board.example', `<html>${NEWS_NAV}${stories(40)}${categories(60)}</html>`),
    );
    const catalogue = board.reasons.find((r) => r.signal === 'catalogue_counts')!;
    expect(catalogue.evidence).toContain('60 of 105 links on https://board.example/ end in an item count');
    expect(catalogue.evidence).toContain('Category 0 (100)');
    expect(board.verdict).not.toBe('news');
    // A month archive under dozens of stories is a minority of the links, and fewer than 40 counted links say nothing.
    const archive = judgeNews(
      input('paper.example', `<html>${NEWS_NAV}${stories(80)}${categories(45)}</html>`),
    );
    expect(signals(archive)).not.toContain('catalogue_counts');
    expect(signals(judgeNews(input('board.example', `<html>${categories(30)}</html>`)))).not.toContain(
      'catalogue_counts',
    );
  });

  it("counts WordPress's own comment form against, and no other form", () => {
    const blog = `<form action="https://blog.example/wp-comments-post.php" method="post"><textarea></textarea></form>`;
    expect(signals(judgeNews(input('blog.example', blog)))).toContain('blog_comment_form');
    const search = `<form action="/search" id="searchform"><input name="q"></form>`;
    expect(signals(judgeNews(input('paper.example', search)))).not.toContain('blog_comment_form');
  });

  it('takes up to 1 off a page with signs of a publisher of articles only, never below maybe', () => {
    const article = `<meta property="og:type" content="article"><meta property="article:published_time" content="2026-11-25T08:00:00Z">
      <p class="byline">By Jane Writer</p>`;
    // Article time, a byline and a handful of posts: a blog or a magazine as much as a newsroom.
    const blog = judgeNews(onArticlePage('tutorials.example', `<html>${article}${stories(8)}</html>`));
    expect(blog.verdict).toBe('maybe');
    expect(blog.score).toBe(0.574);
    const capped = blog.reasons.find((r) => r.signal === 'no_newsroom_sign')!;
    expect(capped.weight).toBeLessThan(0);
    expect(capped.weight).toBeGreaterThanOrEqual(-1);
    expect(capped.evidence).toContain('article_published');
    // Plenty of article evidence and no markup: an unmarked newsroom is still news, 1 off.
    const unmarked = judgeNews(
      input(
        'courier.example',
        `<html>${article}${stories(40)}<time datetime="2026-11-25">a</time><time datetime="2026-11-25">b</time><time datetime="2026-11-24">c</time></html>`,
      ),
    );
    expect(unmarked.verdict).toBe('news');
    expect(unmarked.reasons.find((r) => r.signal === 'no_newsroom_sign')!.weight).toBe(-1);
    // One sign of a newsroom (a section menu) and the reason is not taken; a weak page is not pushed lower.
    const sectioned = judgeNews(input('daily.example', `<html>${NEWS_NAV}${article}${stories(8)}</html>`));
    expect(signals(sectioned)).not.toContain('no_newsroom_sign');
    expect(sectioned.verdict).toBe('news');
    const weak = judgeNews(input('notes.example', `<html>${stories(6)}</html>`));
    expect(signals(weak)).not.toContain('no_newsroom_sign');
  });

  it('puts evidence worth 1.4 on the news line when one of it is a sign of a newsroom', () => {
    const byline = '<p class="byline">By Jane Writer</p>';
    const menu = `<nav><a href="/politics">Politics</a><a href="/business">Business</a><a href="/sport">Sport</a></nav>`;
    const sectioned = judgeNews(input('paper.example', `<html>${menu}${stories(3)}${byline}</html>`));
    expect(signals(sectioned)).toEqual(expect.arrayContaining(['sections_some', 'bylines']));
    expect(sectioned.score).toBe(NEWS_THRESHOLD);
    expect(sectioned.verdict).toBe('news');
    const linked = judgeNews(input('posts.example', `<html>${stories(15)}${byline}</html>`));
    expect(signals(linked)).toEqual(
      expect.arrayContaining(['article_links_some', 'bylines', 'no_newsroom_sign']),
    );
    expect(linked.verdict).toBe('maybe');
  });

  it("counts a publishers' editorial system as a newsroom sign, so an unmarked article page of one is news", () => {
    const article = `<meta property="og:type" content="article"><meta property="article:published_time" content="2026-11-25T08:00:00Z">
      <p class="byline">By Jane Writer</p>${stories(8)}`;
    const plain = judgeNews(onArticlePage('magazine.example', `<html>${article}</html>`));
    expect(plain.verdict).toBe('maybe');
    // heise.de's pages carry this generator (the main real-page corpus).
    const cms = judgeNews(
      onArticlePage(
        'magazine.example',
        `<html><meta name="generator" content="InterRed V15.4.1, http://www.interred.de/, InterRed GmbH">${article}</html>`,
      ),
    );
    expect(cms.reasons.find((r) => r.signal === 'newsroom_generator')?.evidence).toContain('InterRed');
    expect(signals(cms)).not.toContain('no_newsroom_sign');
    expect(cms.verdict).toBe('news');
  });

  it('counts a page whose headlines are mostly how-tos against, and a newsroom explainer among stories not', () => {
    const howto = (titles: string[]) =>
      titles
        .map((t, i) => `<a href="/how_${1000 + i}_${t.toLowerCase().replace(/\W+/g, '-')}.html">${t}</a>`)
        .join('');
    const guides = judgeNews(
      input(
        'howto.example',
        `<html>${NEWS_NAV}${howto(['How to Build a Terrarium', 'How to Paint a Tulip', '5 Ways to Fold a Shirt', 'Kids Kitchen Ideas'])}</html>`,
      ),
    );
    const reason = guides.reasons.find((r) => r.signal === 'howto_headlines');
    expect(reason?.weight).toBeLessThan(0);
    expect(reason?.evidence).toContain('3 of 4 headlines');
    const paper = judgeNews(
      input(
        'paper.example',
        `<html>${NEWS_NAV}${howto(['Council votes on budget', 'How to vote on Sunday', 'Storm closes schools', 'Mayor resigns'])}</html>`,
      ),
    );
    expect(signals(paper)).not.toContain('howto_headlines');
  });
});
