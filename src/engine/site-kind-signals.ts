// What a page says about the kind of site it belongs to beyond its markup types: the software that generated it
// (`<meta name="generator">`: a wiki engine, a documentation tool, a blog generator or host, a government CMS) and a
// site name that names a public body (a ministry, a federal office, a city). news-verdict.ts weighs them. Pure.

export type GeneratorKind = 'wiki' | 'docs' | 'blog' | 'public_body' | 'newsroom';

/**
 * Generator values by the kind of site they make. WordPress, Drupal, TYPO3, Joomla and Ghost say nothing (newsrooms
 * run them as much as anyone); a wiki engine or a documentation tool never runs a newsroom's site; static blog
 * generators and hosted blogs (Blogger, WordPress.com) rarely do; Government Site Builder is the German federal administration's CMS. Editorial
 * systems sold to publishers (InterRed, fCMS, Escenic/CUE, Polopoly, Atex, Naviga, NewsGate, Labrador, Brightspot,
 * BLOX, Tempest, Crowd Fusion, Méthode) run newsrooms and magazines. WordPress VIP sends "WordPress.com" too (Time,
 * the New York Post: 8 news pages of the real-page sets, all judged news on other evidence); dropping it let a hosted
 * blog with its own domain through, so it stays.
 */
const GENERATORS: Array<[RegExp, GeneratorKind]> = [
  [/^(mediawiki|dokuwiki|tiddlywiki|moinmoin|pmwiki|xwiki|wiki\.js|confluence|bookstack)\b/i, 'wiki'],
  [
    /^(sphinx|mkdocs|docusaurus|vuepress|vitepress|gitbook|read the docs|docsy|antora|jsdoc|typedoc|doxygen|starlight|nextra|mdbook)\b/i,
    'docs',
  ],
  [/^(hugo|jekyll|nikola|pelican|hexo|eleventy|zola|octopress|gridsome|blogger|wordpress\.com)\b/i, 'blog'],
  [/^government site builder\b/i, 'public_body'],
  [
    /^(interred|fcms by fidion|escenic|cue by stibo|stibo dx|polopoly|atex|naviga|newsgate|labrador cms|brightspot|blox cms|tempest - |crowd fusion|m[ée]thode|eidosmedia)/i,
    'newsroom',
  ],
];

/**
 * Hosted blog and newsletter services, known by the assets only their own hosted pages load (a custom domain hides the
 * host; the theme and the app bundle do not): Substack's `substackcdn.com/bundle/`, Over-blog's
 * `assets.over-blog-kiwi.com/b/blog/`, Blogger's `www.blogger.com/static/v1/widgets/`. A newsroom embedding a
 * newsletter's sign-up box loads another file (Substack's is on substack.com), so it is not read as one. Substack's and
 * Over-blog's templates declare NewsArticle on every post, whoever writes it: `templateNewsArticle`.
 */
const HOSTED_BLOGS: ReadonlyArray<{
  host: string;
  path: string;
  name: string;
  templateNewsArticle: boolean;
}> = [
  { host: 'substackcdn.com', path: '/bundle/', name: 'Substack', templateNewsArticle: true },
  { host: 'assets.over-blog-kiwi.com', path: '/b/blog/', name: 'Over-blog', templateNewsArticle: true },
  { host: 'www.blogger.com', path: '/static/v1/widgets/', name: 'Blogger', templateNewsArticle: false },
];

/** The hosted blog service whose own assets a script or stylesheet URL is, or null. */
export function hostedBlogOfAsset(url: URL): string | null {
  for (const blog of HOSTED_BLOGS)
    if (url.hostname === blog.host && url.pathname.startsWith(blog.path)) return blog.name;
  return null;
}

/** Whether the hosted blog service's template declares NewsArticle on every post. */
export function hostedBlogDeclaresNews(name: string): boolean {
  return HOSTED_BLOGS.some((blog) => blog.name === name && blog.templateNewsArticle);
}

/** The kind of site the first recognised generator makes, with the generator as written. */
export function generatorKind(
  generators: readonly string[],
): { kind: GeneratorKind; generator: string } | null {
  if (!Array.isArray(generators)) return null;
  for (const generator of generators.slice(0, 10)) {
    if (typeof generator !== 'string') continue;
    const value = generator.trim();
    const found = GENERATORS.find(([pattern]) => pattern.test(value));
    if (found !== undefined) return { kind: found[1], generator: value.slice(0, 80) };
  }
  return null;
}

/**
 * Names of public bodies: ministries, federal and state offices and agencies (German compounds included), chancelleries,
 * city administrations (city of, ville de, mairie, comune di, ayuntamiento, prefeitura, gemeente, urząd miasta, a
 * council…), governments. News agencies ("Press Agency") and newspapers named after a county are not
 * matched: the words are specific to administrations.
 */
const PUBLIC_BODY_NAME =
  /\b(?:ministry|minist[eè]re|ministerio|ministero|ministerie|ministerstwo|department of|government of|gouvernement|gobierno de|governo d[aeo]|city of|stadt\s+\p{Lu}|regierung|ville de|mairie de|commune de|comune di|ayuntamiento de|municipio de|prefeitura de|câmara municipal|gemeente|stadtverwaltung|urz[aą]d (?:miasta|gminy)|municipality of|(?:city|county|borough|district) council)|(?:bundes|landes)(?:amt|agentur|anstalt|ministerium|regierung|zentrale)|ministerium|kanzleramt|auswärtiges amt/iu;

/** The site's own name: og:site_name, else the last part of a title cut by " | ", " - ", " – " or " — ". */
export function siteNameOf(ogSiteName: string | null, title: string | null): string | null {
  if (typeof ogSiteName === 'string' && ogSiteName.trim() !== '') return ogSiteName.trim().slice(0, 120);
  if (typeof title !== 'string') return null;
  const parts = title.split(/\s+[|–—-]\s+/);
  return parts.length >= 2 ? parts[parts.length - 1]!.trim().slice(0, 120) || null : null;
}

/** The site name, when it names a public body. */
export function publicBodyName(ogSiteName: string | null, title: string | null): string | null {
  const name = siteNameOf(ogSiteName, title);
  return name !== null && PUBLIC_BODY_NAME.test(name) ? name : null;
}

/**
 * Words of newspaper and broadcaster names, found inside a domain label (ilanganews, boersen-zeitung, ria-novosti,
 * diarimes-noticies). Only words that hide inside no common word or place: "haber" is in haberdashery, "vesti" in
 * invest and "khabar" in Khabarovsk, so those are left to the site's name.
 */
const NEWSROOM_HOST_WORD =
  /news|zeitung|nachrichten|herald|tribune|gazette|gazeta|gazete|gazzetta|noticias|noticies|diario|dagblad|nyheter|nyheder|uutiset|sanomat|shimbun|tagblatt|anzeiger|quotidien|giornale|corriere|chronicle|nieuws|novosti|novini|vijesti|haberler|wiadomosci|zpravy|stiri|berita|tintuc|samachar|akhbar|habari|ziarul/i;
/**
 * Words of news both in a site's name and in a front page's own description of its site (Noticias, Nachrichten,
 * Wiadomości, Новости, أخبار), in the languages of the labelled sets and their neighbours.
 */
// biome-ignore format: a word list reads better packed than one word a line
const NEWS_WORDS = [
  'news', 'noticias', 'not[ií]cias', 'not[ií]cies', 'notizie', 'nachrichten', 'nieuws', 'wiadomo[sś]ci', 'zpr[aá]vy',
  'spr[aá]vy', 'h[ií]rek', '[sș]tiri', 'vijesti', 'vesti', 'uutiset', 'nyheter', 'nyheder', 'haberleri', 'berita',
  'habari', 'tin t[uứ]c', 'zi[nņ]as', 'zi[nņ]u', 'naujienos', 'naujien[uų]', 'uudised', 'lajme', 'fréttir', 'nuacht',
  'newyddion', 'xəbərlər\\p{L}*', 'yangilik\\p{L}*', 'жаңалық\\p{L}*', 'мэдээ', 'ახალი ამბები', 'լուրեր', 'خبریں', 'వార్తలు',
  'ಸುದ್ದಿ', 'വാർത്തകൾ', 'വാർത്ത', 'बातम्या', 'સમાચાર', 'ਖ਼ਬਰਾਂ', 'ਖਬਰਾਂ', 'செய்திகள்', 'පුවත්', 'ዜና', 'labarai',
  'wararka', 'новости', 'новини', 'ειδήσεις', 'समाचार', 'খবর', 'সংবাদ', 'أخبار', 'اخبار', 'חדשות',
  'peri[oó]dico', 'zeitung', 'giornale', 'gazeta', 'gazette',
];
/** Any of `words` as a whole word (no letter on either side), case-insensitive. */
function wholeWords(words: readonly string[]): string {
  return `(?<!\\p{L})(?:${words.join('|')})(?!\\p{L})`;
}

/**
 * …and, as whole words, in the site's name (The Daily X, X Post, X Times, Новости X, X Haber, Berita X), with the
 * words only a name gives: a news agency named as one in its own language too. Academic titles that share a
 * newspaper's word (a university's "Вестник", a scholarly "Journal") are not in it.
 */
// biome-ignore format: a word list reads better packed than one word a line
const NEWSROOM_NAME_WORD = new RegExp(
  wholeWords([
    ...NEWS_WORDS,
    'times', 'post', 'daily', 'herald', 'tribune', 'gazzetta', 'courier', 'chronicle', 'observer', 'telegraph',
    'tagblatt', 'anzeiger', 'rundschau', 'kurier', 'diario', 'diari', 'jornal', 'krant', 'dagblad', 'uudised', 'sanomat',
    'shimbun', 'quotidien', 'corriere', 'noviny', 'novine', 'h[ií]rlap', 'ziarul', '(?<!fritz[- ])haber', 'вести',
    'вісті', 'известия', 'газета', 'ведомости', 'news agency', 'nachrichtenagentur', 'agence de presse',
    'agencia de noticias', 'ag[eê]ncia de not[ií]cias', 'agenzia di stampa', 'информационное агентство',
    'інформаційне агентство', 'информагентство', 'інформагентство', 'haber ajans[ıi]', 'kantor berita', 'ख़बर', 'खबर',
    'செய்திகள்', 'الأنباء', 'خبرگزاری',
  ]),
  'iu',
);
/**
 * The same in scripts written without spaces between words, or in compounds (朝日新聞, 联合早报, 연합뉴스, 조선일보,
 * ข่าวสด), where a word boundary cannot be asked for.
 */
const NEWSROOM_NAME_COMPOUND =
  /新闻|新聞|日报|日報|早报|早報|晚报|晚報|时报|時報|通讯社|通訊社|通信社|뉴스|신문|일보|ข่าว|หนังสือพิมพ์/u;

/**
 * Words of news as a front page describes its own site in its title or meta description ("Últimas noticias de…",
 * "Nachrichten aus…", "Breaking news", "Новости"): on the labelled sets' front pages, 29 of 45 news fronts of the
 * tuning halves say one, and 2 of 101 non-news fronts. The name's words with an everyday sense are left out: "daily"
 * (deals), "diario" (a daily menu), "quotidien" (a company "au quotidien"), "journal" (a scholarly one), "haber"
 * (Spanish "to have"); and "actualités", "actualidad" (companies', unions' and towns' news pages: a union's front read
 * news). Three words only a description gives: "haberler", "balita", "newspaper".
 */
const NEWS_SELF_WORD = new RegExp(
  `${wholeWords([...NEWS_WORDS, 'haberler', 'balita', 'newspaper'])}|新闻|新聞|뉴스|ニュース|ข่าว|ព័ត៌មាន|သတင်း`,
  'iu',
);

/**
 * The words `find` reads in one field of a front page (`what`: its title, site name, description), as evidence
 * ("<words>" in the front page's title "<title>"); null where it finds none.
 */
export function frontFieldEvidence(
  what: string,
  text: string | null,
  find: (text: string) => string | null,
): string | null {
  if (typeof text !== 'string') return null;
  const found = find(text);
  return found === null ? null : `"${found}" in the front page's ${what} "${text.slice(0, 100)}"`;
}

/** The words `find` reads in a front page's title, else its description, as evidence; null where it finds none. */
export function frontTextEvidence(
  title: string | null,
  description: string | null,
  find: (text: string) => string | null,
): string | null {
  return frontFieldEvidence('title', title, find) ?? frontFieldEvidence('description', description, find);
}

/** The title or description of a front page, where it says the site brings news, as evidence; else null. */
export function newsSelfDescription(title: string | null, description: string | null): string | null {
  return frontTextEvidence(title, description, (text) => NEWS_SELF_WORD.exec(text)?.[0] ?? null);
}

/** A newspaper word in the registrable domain's first label or in the site's name, as evidence; else null. */
export function newsroomName(
  registrableDomain: string,
  ogSiteName: string | null,
  title: string | null,
): string | null {
  const label = typeof registrableDomain === 'string' ? (registrableDomain.split('.')[0] ?? '') : '';
  const inHost = NEWSROOM_HOST_WORD.exec(label);
  if (inHost !== null) return `"${inHost[0]}" in ${registrableDomain}`;
  const name = siteNameOf(ogSiteName, title);
  const inName = name === null ? null : (NEWSROOM_NAME_WORD.exec(name) ?? NEWSROOM_NAME_COMPOUND.exec(name));
  return inName === null ? null : `"${inName[0]}" in the site's name "${name}"`;
}
