// The discovery bench's sites, served by the latency fake internet (latency-internet-server.ts) under names of
// their own (`seed-00001.test`, `news-00001.test`…: each its own registrable domain, as real sites are).
// Seeds are news homepages whose "partners" box links to other sites; candidates are WordPress-like sites:
// news (section menu, dated article links with bylines and <time>, a frequent RSS feed and its comments feed,
// a Yoast sitemap index of three children, a robots.txt naming it), or the planted non-news ones — a recipe blog
// (WP Recipe Maker cards, Recipe markup) and a WooCommerce shop (Product markup, add-to-cart buttons).
// Pure: the same request gets the same answer for a given `now`.

export type NamedSite =
  /** A seed's homepage cites these hosts (plus a few platform hosts, which are never candidates). */
  { kind: 'seed'; cites: string[] } | { kind: 'news' | 'recipe' | 'shop' };

export interface Answer {
  status: number;
  type: string;
  body: string;
}

const HTML = 'text/html; charset=UTF-8';
const WORDS = [
  'council',
  'budget',
  'harbour',
  'minister',
  'schools',
  'transport',
  'housing',
  'river',
  'festival',
  'court',
  'election',
  'market',
  'hospital',
  'police',
  'weather',
  'bridge',
  'workers',
  'tourism',
  'library',
  'stadium',
];
const SECTIONS = ['politics', 'economy', 'sport', 'world', 'opinion', 'culture', 'technology'];
const DISHES = [
  'lemon chicken traybake',
  'easy banana bread',
  'slow cooker beef ragu',
  'creamy mushroom risotto',
];
const PRODUCTS = ['blue enamel mug', 'oak serving board', 'linen tea towel', 'cast iron skillet'];

/** A site's number from its name (the digits of `news-00042.test`). */
function numberOf(host: string): number {
  return Number(/(\d+)/.exec(host)?.[1] ?? 0);
}

function title(host: string): string {
  return `The ${host.replace(/\.test$/, '').replace(/-/g, ' ')} Post`;
}

/** The n-th story of a site: a dated WordPress permalink, `hours` before now. */
function story(n: number, site: number, now: Date) {
  const at = new Date(now.getTime() - (n * 2 + 1) * 3_600_000);
  const day = at.toISOString().slice(0, 10).replace(/-/g, '/');
  const words = [0, 1, 2, 3, 4].map((k) => WORDS[(site + n * 3 + k * 7) % WORDS.length]);
  return {
    path: `/${day}/${words.join('-')}-${n + 1}/`,
    headline: `${words[0]} ${words[1]} plan for ${words[2]} and ${words[3]}`,
    at: at.toISOString().replace(/\.\d+Z$/, '+00:00'),
    section: SECTIONS[(site + n) % SECTIONS.length] as string,
  };
}

function head(host: string, extra: string): string {
  const origin = `https://${host}`;
  return (
    `<meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${title(host)}</title>` +
    `<link rel="alternate" type="application/rss+xml" title="${title(host)} &raquo; Feed" href="${origin}/feed/">` +
    `<link rel="alternate" type="application/rss+xml" title="${title(host)} &raquo; Comments Feed" href="${origin}/comments/feed/">` +
    `<link rel="https://api.w.org/" href="${origin}/wp-json/"><meta name="generator" content="WordPress 6.6.2">` +
    `<link rel="stylesheet" href="${origin}/wp-content/themes/newsup/style.css?ver=6.6.2">` +
    extra
  );
}

function document(host: string, headExtra: string, bodyClass: string, body: string): string {
  return (
    `<!DOCTYPE html><html lang="en-SG"><head>${head(host, headExtra)}</head>` +
    `<body class="${bodyClass}"><div id="page" class="site">${body}</div>` +
    `<script src="https://${host}/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script></body></html>`
  );
}

function footer(host: string): string {
  const slug = host.replace(/\.test$/, '');
  return (
    `<footer class="site-footer"><ul class="footer-menu"><li><a href="/about-us/">About us</a></li>` +
    `<li><a href="/contact/">Contact</a></li><li><a href="/privacy-policy/">Privacy policy</a></li></ul>` +
    `<div class="social"><a href="https://www.facebook.com/${slug}">Facebook</a> ` +
    `<a href="https://twitter.com/${slug}">X</a> <a href="https://www.youtube.com/@${slug}">YouTube</a></div>` +
    `<p>&copy; 2026 ${title(host)}. Proudly powered by WordPress.</p></footer>`
  );
}

/** A news homepage: section menu, 36 dated stories, and for a seed the box of links to other sites. */
function newsHome(host: string, now: Date, cites: readonly string[]): string {
  const site = numberOf(host);
  const menu = SECTIONS.map(
    (s) => `<li class="menu-item"><a href="/category/${s}/">${s[0]?.toUpperCase()}${s.slice(1)}</a></li>`,
  ).join('');
  const stories = Array.from({ length: 36 }, (_, n) => {
    const s = story(n, site, now);
    return (
      `<article class="post type-post status-publish category-${s.section}"><header class="entry-header">` +
      `<h2 class="entry-title"><a href="${s.path}" rel="bookmark">${s.headline}</a></h2>` +
      `<div class="entry-meta"><time class="entry-date published" datetime="${s.at}">${s.at.slice(0, 10)}</time> ` +
      `<span class="byline">By <a class="url fn n" rel="author" href="/author/desk-${n % 4}/">Desk ${n % 4}</a></span>` +
      `</div></header><div class="entry-summary"><p>${s.headline}, the ${s.section} desk reports.</p></div></article>`
    );
  }).join('');
  const partners =
    cites.length === 0
      ? ''
      : `<aside class="widget widget_links"><h3 class="widget-title">Around the region</h3><ul>${cites
          .map((c) => `<li><a href="https://${c}/" target="_blank">${title(c)}</a></li>`)
          .join('')}</ul></aside>`;
  const jsonLd =
    site % 3 === 0
      ? ''
      : `<script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@graph': [
            { '@type': 'NewsMediaOrganization', name: title(host), url: `https://${host}/` },
            { '@type': 'WebSite', name: title(host), url: `https://${host}/`, inLanguage: 'en-SG' },
          ],
        })}</script>`;
  return document(
    host,
    `<meta property="og:type" content="website"><meta property="og:site_name" content="${title(host)}">${jsonLd}`,
    'home blog wp-theme-newsup',
    `<header class="site-header"><p class="site-title"><a href="/" rel="home">${title(host)}</a></p>` +
      `<nav id="site-navigation" class="main-navigation"><ul id="primary-menu" class="menu">${menu}</ul></nav></header>` +
      `<main id="main" class="site-main">${stories}</main>${partners}${footer(host)}`,
  );
}

function newsArticle(host: string, path: string, now: Date): string {
  const site = numberOf(host);
  const s = story(Number(/-(\d+)\/$/.exec(path)?.[1] ?? 1) - 1, site, now);
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: s.headline,
    datePublished: s.at,
    author: { '@type': 'Person', name: 'Desk 1' },
  };
  return document(
    host,
    `<meta property="og:type" content="article"><meta property="article:published_time" content="${s.at}">` +
      `<script type="application/ld+json">${JSON.stringify(ld)}</script>`,
    'post-template-default single single-post',
    `<main><article class="post"><h1 class="entry-title">${s.headline}</h1><time datetime="${s.at}">${s.at}</time>` +
      `<span class="byline">By Desk 1</span><p>${s.headline}. The ${s.section} desk reports.</p></article></main>` +
      footer(host),
  );
}

function recipeHome(host: string): string {
  const cards = DISHES.map((dish, i) => {
    const slug = dish.replace(/ /g, '-');
    return (
      `<article class="post type-post category-dinner"><h2 class="entry-title"><a href="/${slug}/">${dish}</a></h2>` +
      `<div class="wprm-recipe-roundup-item wprm-recipe-template-roundup"><span class="wprm-recipe-time">` +
      `Prep time ${10 + i * 5} mins</span> <span class="wprm-recipe-servings">Serves 4</span>` +
      `<p>Ingredients: see the recipe card.</p><a class="wprm-recipe-jump" href="/${slug}/#recipe">Jump to recipe</a></div></article>`
    );
  }).join('');
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: DISHES.map((dish, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      item: { '@type': 'Recipe', name: dish, recipeIngredient: ['1 lemon', '2 eggs'] },
    })),
  };
  return document(
    host,
    `<meta property="og:type" content="website"><script type="application/ld+json">${JSON.stringify(ld)}</script>`,
    'home blog',
    `<header><nav class="main-navigation"><ul class="menu"><li><a href="/category/dinner/">Dinner</a></li>` +
      `<li><a href="/category/baking/">Baking</a></li><li><a href="/category/desserts/">Desserts</a></li>` +
      `<li><a href="/about-us/">About</a></li></ul></nav></header><main>${cards}</main>${footer(host)}`,
  );
}

function shopHome(host: string): string {
  const items = PRODUCTS.map(
    (p, i) =>
      `<li class="product type-product"><a href="/product/${p.replace(/ /g, '-')}/" class="woocommerce-LoopProduct-link">` +
      `<h2 class="woocommerce-loop-product__title">${p}</h2><span class="price">$${19 + i * 7}.00</span></a>` +
      `<a href="?add-to-cart=${100 + i}" class="button product_type_simple add_to_cart_button">Add to cart</a></li>`,
  ).join('');
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: PRODUCTS[0],
    offers: { '@type': 'Offer', price: '19.00', priceCurrency: 'SGD' },
  };
  return document(
    host,
    `<meta property="og:type" content="website"><script type="application/ld+json">${JSON.stringify(ld)}</script>`,
    'home woocommerce woocommerce-page',
    `<header><nav class="main-navigation"><ul class="menu"><li><a href="/shop/">Shop</a></li>` +
      `<li><a href="/product-category/kitchen/">Kitchen</a></li><li><a href="/cart/">Cart</a></li>` +
      `<li><a href="/checkout/">Checkout</a></li></ul></nav></header>` +
      `<main class="woocommerce"><ul class="products columns-4">${items}</ul></main>${footer(host)}`,
  );
}

function rssFeed(host: string, items: Array<{ path: string; headline: string; at: string }>): string {
  const origin = `https://${host}`;
  const entries = items
    .map(
      (i) =>
        `<item><title>${i.headline}</title><link>${origin}${i.path}</link><guid isPermaLink="false">${origin}${i.path}</guid>` +
        `<pubDate>${new Date(i.at).toUTCString()}</pubDate><dc:creator><![CDATA[Desk 1]]></dc:creator>` +
        `<description><![CDATA[${i.headline}.]]></description></item>`,
    )
    .join('\n');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" ` +
    `xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${title(host)}</title>` +
    `<atom:link href="${origin}/feed/" rel="self" type="application/rss+xml"/><link>${origin}</link>` +
    `<description>News from the region</description><language>en-SG</language>` +
    `<generator>https://wordpress.org/?v=6.6.2</generator>\n${entries}\n</channel></rss>\n`
  );
}

function urlset(urls: Array<{ loc: string; lastmod: string }>): string {
  const entries = urls.map((u) => `<url><loc>${u.loc}</loc><lastmod>${u.lastmod}</lastmod></url>`).join('\n');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    `${entries}\n</urlset>\n`
  );
}

const NOT_FOUND: Answer = {
  status: 404,
  type: HTML,
  body: '<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>Oops! That page can’t be found.</h1></body></html>',
};

/** The answer of a named site to a GET of `path`. */
export function namedAnswer(host: string, path: string, site: NamedSite, now: Date): Answer {
  const origin = `https://${host}`;
  const n = numberOf(host);
  const lastmod = now.toISOString().replace(/\.\d+Z$/, '+00:00');
  // Made only for the paths that list them: the fake internet's CPU is taken from the measured process's cores.
  const stories = () => Array.from({ length: 36 }, (_, i) => story(i, n, now));
  switch (path) {
    case '/robots.txt':
      return {
        status: 200,
        type: 'text/plain; charset=utf-8',
        body:
          'User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\n' +
          `Sitemap: ${origin}/sitemap_index.xml\n`,
      };
    case '/': {
      const body =
        site.kind === 'recipe'
          ? recipeHome(host)
          : site.kind === 'shop'
            ? shopHome(host)
            : newsHome(host, now, site.kind === 'seed' ? site.cites : []);
      return { status: 200, type: HTML, body };
    }
    case '/feed/': {
      const items =
        site.kind === 'recipe'
          ? DISHES.map((d, i) => ({
              path: `/${d.replace(/ /g, '-')}/`,
              headline: d,
              at: new Date(now.getTime() - (i + 1) * 9 * 86_400_000).toISOString(),
            }))
          : site.kind === 'shop'
            ? [{ path: '/summer-sale-is-here/', headline: 'Summer sale', at: '2026-06-01T00:00:00Z' }]
            : stories().slice(0, 10);
      return { status: 200, type: 'application/rss+xml; charset=UTF-8', body: rssFeed(host, items) };
    }
    case '/comments/feed/':
      return {
        status: 200,
        type: 'application/rss+xml; charset=UTF-8',
        body: rssFeed(
          host,
          stories()
            .slice(0, 3)
            .map((s) => ({ ...s, path: `${s.path}#comment-1`, headline: `Comment on ${s.headline}` })),
        ),
      };
    case '/sitemap_index.xml': {
      const children = ['post-sitemap.xml', 'page-sitemap.xml', 'category-sitemap.xml']
        .map((c) => `<sitemap><loc>${origin}/${c}</loc><lastmod>${lastmod}</lastmod></sitemap>`)
        .join('\n');
      return {
        status: 200,
        type: 'application/xml; charset=UTF-8',
        body:
          `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
          `${children}\n</sitemapindex>\n`,
      };
    }
    case '/post-sitemap.xml':
      return {
        status: 200,
        type: 'application/xml; charset=UTF-8',
        body: urlset(stories().map((s) => ({ loc: `${origin}${s.path}`, lastmod: s.at }))),
      };
    case '/page-sitemap.xml':
      return {
        status: 200,
        type: 'application/xml; charset=UTF-8',
        body: urlset(['/', '/about-us/', '/contact/'].map((p) => ({ loc: `${origin}${p}`, lastmod }))),
      };
    case '/category-sitemap.xml':
      return {
        status: 200,
        type: 'application/xml; charset=UTF-8',
        body: urlset(SECTIONS.map((s) => ({ loc: `${origin}/category/${s}/`, lastmod }))),
      };
    default:
      // Sampled article pages (a `maybe` verdict reads two): a news story, or a recipe or product page.
      if (
        (site.kind === 'news' || site.kind === 'seed') &&
        /^\/\d{4}\/\d{2}\/\d{2}\/[a-z-]+-\d+\/$/.test(path)
      )
        return { status: 200, type: HTML, body: newsArticle(host, path, now) };
      if (site.kind === 'recipe' && DISHES.some((d) => path === `/${d.replace(/ /g, '-')}/`))
        return { status: 200, type: HTML, body: recipeHome(host) };
      return NOT_FOUND;
  }
}
