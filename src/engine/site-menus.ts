// What a site's own menu says of its kind, printed on every page of it, the front included: a recipe site's courses,
// a company's pages about itself, a school's pages for its students, a shop's pages about buying, a person's "About
// me" (against news); a sports desk's sports, a newsroom's kinds of journalism and a newspaper's reader features (for
// it). Each a whole menu item, several of them together. In the same pass over the page's own links, the one kind read
// off URLs rather than anchors: a catalogue's many product pages.
//
// A recipe site's menu: its own links named for courses, meals, diets and cooking methods ("Breakfast", "Side
// dishes", "Slow cooker", "Primi piatti", "Nachspeisen"). A recipe blog prints that menu on every page, its front page
// included, where no recipe card (Recipe markup, a plugin's classes, "prep time") shows: so the front of a recipe
// site reads as one. A newspaper with a cooking section lists a few such words at most (corriere.it's food menu: five).
import type { PageLink } from './page-facts.js';

/** Distinct course, meal or diet words among a page's own links that make a recipe site's menu. */
export const RECIPE_MENU_MIN_WORDS = 6;

/**
 * Menu words of recipe sites, by language. "Cookies" is left out (every site's cookie-policy link), and so are words
 * that name a newspaper's desk too ("Food", "Cooking", "Restaurants").
 */
// biome-ignore format: a word list reads better packed than one word a line
const RECIPE_MENU_WORDS: ReadonlySet<string> = new Set([
  // English
  'recipes', 'all recipes', 'recipe index', 'breakfast', 'brunch', 'lunch', 'dinner', 'dinners', 'dessert', 'desserts',
  'appetizer', 'appetizers', 'starters', 'snacks', 'side dishes', 'sides', 'main dishes', 'main courses', 'mains',
  'soup', 'soups', 'salad', 'salads', 'drinks', 'cocktails', 'smoothies', 'baking', 'bread', 'breads', 'cakes',
  'pasta', 'vegan', 'vegetarian', 'gluten-free', 'gluten free', 'dairy-free', 'slow cooker', 'instant pot',
  'air fryer', 'meal prep', 'chicken', 'beef', 'pork', 'seafood', 'healthy recipes', 'easy recipes', 'quick dinners',
  'weeknight dinners',
  // German
  'rezepte', 'frühstück', 'mittagessen', 'abendessen', 'vorspeisen', 'hauptgerichte', 'beilagen', 'suppen', 'salate',
  'nachspeisen', 'backen', 'kuchen', 'plätzchen', 'getränke', 'vegetarisch',
  // French
  'recettes', 'entrées', 'plats', 'plats principaux', 'apéritif', 'apéritifs', 'petit-déjeuner', 'soupes', 'salades',
  'gâteaux', 'boissons', 'végétarien',
  // Italian
  'ricette', 'antipasti', 'primi piatti', 'secondi piatti', 'contorni', 'dolci', 'lievitati', 'pizze', 'zuppe',
  'insalate', 'bevande',
  // Spanish and Portuguese
  'recetas', 'desayunos', 'cenas', 'postres', 'entrantes', 'aperitivos', 'ensaladas', 'sopas', 'platos principales',
  'guarniciones', 'bebidas', 'panes', 'receitas', 'sobremesas', 'bolos', 'lanches', 'pratos principais', 'saladas',
  'massas', 'doces',
  // Dutch
  'recepten', 'ontbijt', 'voorgerechten', 'hoofdgerechten', 'nagerechten', 'soepen', 'taarten',
  // Polish, Russian, Turkish
  'przepisy', 'desery', 'ciasta', 'zupy', 'sałatki', 'obiady', 'śniadania', 'przekąski', 'dania główne', 'рецепты',
  'десерты', 'выпечка', 'супы', 'салаты', 'закуски', 'вторые блюда', 'завтраки', 'tarifler', 'tatlılar', 'çorbalar',
  'salatalar', 'ana yemekler', 'hamur işleri', 'mezeler',
]);

/** "Chicken recipes", "Dessert recipes", "Rezepte" after or before a course word: the course word alone. */
const RECIPES_WORD =
  /^(?:recipes?|rezepte|recettes|ricette|recetas|receitas|recepten|przepisy|рецепты)\s+(?:de\s+|di\s+|für\s+)?|\s+(?:recipes?|rezepte|recettes|ricette|recetas|receitas|recepten|przepisy|рецепты)$/u;

/**
 * A recipe index's way in ("Recipes by Course", "Recipes by Cuisine", "Rezepte nach Anlass", "Recettes par
 * ingrédient"): each counts as one of the menu's courses. Session 25: ten recipe sites' pages of the labelled sets and
 * Serious Eats' front carry them, no news page.
 */
const RECIPES_BY =
  /^(?:recipes?|rezepte|recettes|recetas|ricette|receitas|recepten|przepisy)\s+(?:by|nach|par|por|per|wg|op)\s+\S/u;

/** A space, a punctuation mark or a symbol (an emoji too): what a menu item's text is trimmed of at either end. */
const EDGE = /^[\s\p{P}\p{S}]$/u;
const SPACE_RUN = /\s{2,}|[^\S ]/;

/**
 * A link's anchor as a menu item reads: lower case, spaces collapsed, no space, punctuation or symbol at either end.
 * Trimmed a code point at a time, not by a regular expression anchored at the end, which scans the whole anchor
 * (a front page has a hundred links and more).
 */
export function menuItem(anchor: string): string {
  let text = anchor.toLowerCase();
  if (SPACE_RUN.test(text)) text = text.replace(/\s+/g, ' ');
  let start = 0;
  let end = text.length;
  while (start < end) {
    const point = String.fromCodePoint(text.codePointAt(start) as number);
    if (!EDGE.test(point)) break;
    start += point.length;
  }
  while (end > start) {
    const low = text.charCodeAt(end - 1);
    const size = low >= 0xdc00 && low <= 0xdfff && end - 2 >= start ? 2 : 1;
    if (!EDGE.test(text.slice(end - size, end))) break;
    end -= size;
  }
  return text.slice(start, end);
}

/**
 * A personal site's page about its one author, named in the first person ("About me", "Über mich", "Chi sono", "O
 * mnie", "Hakkımda") or by the author's first name ("Meet Joy"): a blogger's, a writer's or a cook's site. A newsroom's
 * is "About us"; its article's "About the author" box names a writer of many, and is not read.
 */
// biome-ignore format: a word list reads better packed than one word a line
const ABOUT_ME = new RegExp(
  `^(?:${[
    'about me', 'über mich', 'ueber mich', 'qui suis-je', 'qui suis je', 'à propos de moi', 'a propos de moi',
    'sobre mí', 'sobre mi', 'acerca de mí', 'sobre mim', 'chi sono', 'over mij', 'om mig', 'om meg', 'o mnie',
    'o mně', 'обо мне', 'про мене', 'hakkımda', 'rólam', 'despre mine', 'tentang saya', '关于我', '關於我',
    'meet (?!us$|the$)\\p{L}+',
  ].join('|')})$`,
  'u',
);

/** Distinct items of a company's or a school's own menu that make it that kind of site's. */
export const KIND_MENU_MIN_ITEMS = 3;

/**
 * A company's menu about itself, its business and its shareholders, several languages: what a consultancy's, a
 * manufacturer's or a listed group's site lists and a newsroom's does not (no news page of the labelled sets has two
 * of them; a listed publisher's "Investor relations" or a paper's reader "Servicios" is one).
 */
// biome-ignore format: a word list reads better packed than one word a line
const COMPANY_MENU_ITEMS: ReadonlySet<string> = new Set([
  'all industries', 'all services', 'our services', 'clients', 'our clients', 'business partners', 'investor relations',
  'share price', 'corporate governance', 'office locations', 'our offices', 'executive biographies', 'leadership team',
  'current vacancies', 'case studies', 'unsere leistungen', 'leistungen', 'dienstleistungen', 'nos services',
  'nos solutions', 'nos métiers', 'nuestros servicios', 'servicios', 'clientes', 'inversores', 'sedes',
  'líneas de negocio',
  // The industries a vendor sells to, as its menu names them (juniper.net, nvidia.com, arxan.com): no news page of the
  // labelled sets carries two; a business paper's desks are "Banking", "Retail", "Healthcare", which are not here.
  'financial services', 'life sciences', 'service provider', 'service providers', 'cloud providers', 'public sector',
  'federal government', 'state & local government', 'state and local government', 'higher education', 'k-12',
  'energy & utilities', 'energy and utilities', 'telecommunications', 'oil & gas', 'media & entertainment',
  'media and entertainment', 'professional services', 'consumer goods', 'transportation & logistics',
]);

/**
 * A school's, a university's or a course seller's menu for its students, several languages. Not "Research",
 * "Students" or "Campus": newsrooms' menus carry them (Die Zeit's "Campus", a trade paper's "Students").
 */
// biome-ignore format: a word list reads better packed than one word a line
const SCHOOL_MENU_ITEMS: ReadonlySet<string> = new Set([
  'courses', 'all courses', 'online courses', 'lessons', 'flashcards', 'test prep', 'study guides', 'tutoring',
  'degrees', 'certificates', 'admissions', 'undergraduate', 'postgraduate', 'alumni', 'faculty',
  'prospective students', 'current students', 'scholarships', 'tuition', 'campus life', 'studium', 'studiengänge',
  'formations', 'formación', 'cursos', 'corsi', 'licenciaturas', 'posgrados', 'admisiones', 'inscripciones',
]);

/**
 * A newsroom's sports desk, one menu item a sport or a league ("Football", "NBA", "Formel 1", "Baloncesto", "Serie A"):
 * what a paper's sports menu lists under its Sport desk, several languages. Sports shops list sports too: their shop
 * signs say what they are, and the verdict does not read this menu beside one.
 */
// biome-ignore format: a word list reads better packed than one word a line
const SPORTS_DESK_ITEMS: ReadonlySet<string> = new Set([
  'football', 'soccer', 'basketball', 'tennis', 'hockey', 'ice hockey', 'cycling', 'golf', 'rugby', 'cricket',
  'baseball', 'nfl', 'nba', 'nhl', 'mlb', 'f1', 'formula 1', 'formula one', 'motogp', 'boxing', 'mma', 'ufc',
  'athletics', 'volleyball', 'handball', 'skiing', 'premier league', 'champions league', 'la liga', 'serie a',
  'bundesliga', 'ligue 1', 'fußball', 'fussball', 'eishockey', 'radsport', 'formel 1', 'fútbol', 'futbol',
  'baloncesto', 'ciclismo', 'tenis', 'automovilismo', 'calcio', 'pallavolo', 'basket', 'cyclisme', 'futebol',
  'basquete', 'piłka nożna', 'siatkówka', 'футбол', 'хокей', 'хоккей', 'баскетбол', 'теніс', 'теннис', 'basketbol',
  'voleybol', 'волейбол', 'тенис', 'формула 1', 'бокс', 'хандбал', 'гандбол', 'fotbal', 'hokej', 'košarka', 'nogomet',
  'rukomet', 'odbojka', 'kosárlabda', 'labdarúgás', 'jégkorong', 'fotboll', 'ishockey', 'fodbold', 'jalkapallo',
  'jääkiekko', 'voetbal', 'wielrennen', 'schaatsen',
]);

/**
 * A newsroom's menu of the kinds of journalism it publishes — news beside analysis, interviews, reportage, exclusives,
 * investigations, features, columns, editorials — several languages. Alone, "News" is every site's; three of them
 * together are a newsroom's (no non-news page of the labelled sets but a travel blog already read news has three).
 */
// biome-ignore format: a word list reads better packed than one word a line
const NEWSROOM_GENRE_ITEMS: ReadonlySet<string> = new Set([
  'news', 'latest news', 'nachrichten', 'новости', 'новини', 'noticias', 'notizie', 'actualités', 'aktualności',
  'wiadomości', 'haberler', 'berita', 'analysis', 'analyses', 'аналитика', 'analyse', 'analysen', 'análisis', 'analisi',
  'analiza', 'analizy', 'interview', 'interviews', 'интервью', 'інтерв\'ю', 'entrevista', 'entrevistas', 'interviste',
  'wywiad', 'wywiady', 'röportaj', 'reportage', 'reportagen', 'reportajes', 'reportages', 'репортаж', 'репортажи',
  'exclusive', 'exclusives', 'эксклюзив', 'exclusivo', 'investigation', 'investigations', 'investigative',
  'расследования', 'investigaciones', 'inchieste', 'śledztwa', 'features', 'columns', 'kolumne', 'колонки', 'колумне',
  'op-ed', 'editorial', 'editorials', 'leitartikel', 'éditorial',
]);

/**
 * A shop's menu about buying: new arrivals, sales, gift cards, wish lists, shipping and returns, order tracking, a
 * store locator, several languages. A shop that shows no cart or price on its front still prints these; no news page
 * of the labelled sets has two of them.
 */
// biome-ignore format: a word list reads better packed than one word a line
const SHOP_MENU_ITEMS: ReadonlySet<string> = new Set([
  'new arrivals', 'sale', 'gift card', 'gift cards', 'wishlist', 'wish list', 'shipping', 'free shipping', 'returns',
  'track order', 'track my order', 'order status', 'store locator', 'find a store', 'size guide', 'shop all',
  'best sellers', 'bestsellers', 'clearance', 'neuheiten', 'versandkostenfrei', 'merkzettel', 'wunschliste',
  'nouveautés', 'soldes', 'livraison', 'novedades', 'rebajas', 'envíos', 'lista de deseos', 'promozioni', 'saldi',
  'spedizione', 'lançamentos', 'promoções', 'frete grátis', 'nowości', 'wyprzedaż', 'dostawa', 'новинки',
  'распродажа', 'доставка',
  // A customer's orders and the whole catalogue (session 25: 27 non-news pages carry one, no news page).
  'all products', 'reorder', 're-order', 'all orders', 'my orders', 'order history', 'saved payment methods',
  'alle produkte', 'meine bestellungen', 'mes commandes', 'todos los productos', 'mis pedidos', 'tutti i prodotti',
  'i miei ordini',
]);
/**
 * The catalogue's parts as a shop's menu opens them ("Shop all office", "Shop all envelopes", "Shop our templates"):
 * each its own item. A newsroom's own shop is one "Shop" link.
 */
const SHOP_ALL_OF = /^shop (?:all|our) \S/;
/**
 * A link to one of a catalogue's product pages: a path segment naming products, then the product's own segment
 * (/product/1322520/autumn-changes.aspx, /produkte/aspirin_433873). Read off the URL string, not a parsed URL: every link
 * of every page passes here.
 */
const PRODUCT_PAGE =
  /^https?:\/\/[^/?#]+\/(?:[^?#]*\/)?(?:product|products|produkt|produkte|produit|produits|producto|productos|prodotto|prodotti)\/[^/?#]/i;
/**
 * Distinct product pages a page links that make it a catalogue's: 19 non-news pages of the labelled sets link 15 or
 * more, no news page (a paper's own shop or product tests link a few: stern.de 7).
 */
export const PRODUCT_LINKS_MIN = 15;
/** Distinct shop menu items that make a shop's menu. */
export const SHOP_MENU_MIN_ITEMS = 2;

/**
 * A newspaper's reader features, by family: death notices, horoscopes, puzzles, comics, TV listings, lottery results.
 * Two families together are a paper's (a puzzle site has puzzles alone; a mail portal with horoscopes and lottery
 * numbers is capped as one); no non-news page of the labelled sets but WEB.DE's front has two.
 */
// biome-ignore format: a word list reads better packed than one word a line
const NEWSPAPER_FEATURES: ReadonlyMap<string, string> = new Map([
  ...[
    'obituaries', 'obits', 'death notices', 'todesanzeigen', 'traueranzeigen', 'trauer', 'esquelas', 'necrológicas',
    'necrologie', 'avis de décès', 'nekrologi', 'nekrologer', 'dödsannonser',
  ].map((w) => [w, 'death notices'] as const),
  ...[
    'horoscope', 'horoscopes', 'horóscopo', 'horoskop', 'oroscopo', 'гороскоп', 'burçlar',
  ].map((w) => [w, 'horoscopes'] as const),
  ...[
    'crossword', 'crosswords', 'puzzles', 'games & puzzles', 'kreuzworträtsel', 'rätsel', 'crucigrama', 'crucigramas',
    'mots croisés', 'mots fléchés', 'cruciverba', 'sudoku',
  ].map((w) => [w, 'puzzles'] as const),
  ...['comics', 'comic strips', 'cartoons'].map((w) => [w, 'comics'] as const),
  ...[
    'tv listings', 'tv guide', 'tv-programm', 'tv programm', 'programmation tv', 'programme tv', 'programación tv',
    'guida tv', 'tv-gids', 'tv-program',
  ].map((w) => [w, 'tv listings'] as const),
  ...['lottery', 'lotto', 'lottozahlen', 'lotería', 'résultats du loto', 'lotto results'].map(
    (w) => [w, 'lottery'] as const,
  ),
]);
/** Families of newspaper features that make a paper's. */
export const NEWSPAPER_FEATURE_MIN_FAMILIES = 2;

/** A sport or league with one word beside it is that sport's desk: "Български футбол", "College football". */
function sportOf(item: string): string | null {
  if (SPORTS_DESK_ITEMS.has(item)) return item;
  const space = item.indexOf(' ');
  if (space < 0 || item.indexOf(' ', space + 1) >= 0) return null;
  const first = item.slice(0, space);
  const last = item.slice(space + 1);
  return SPORTS_DESK_ITEMS.has(last) ? last : SPORTS_DESK_ITEMS.has(first) ? first : null;
}

/** A course, meal or diet a menu item names, "X recipes" read as X; else null. */
function courseOf(item: string): string | null {
  if (RECIPE_MENU_WORDS.has(item)) return item;
  if (!item.includes(' ')) return null;
  if (RECIPES_BY.test(item)) return item;
  const course = item.replace(RECIPES_WORD, '');
  return course !== item && RECIPE_MENU_WORDS.has(course) ? course : null;
}

/** What a page's own menu says of its site: each kind's items when there are enough of them, else null. */
export interface SiteMenus {
  /** A recipe site's courses, meals and diets (RECIPE_MENU_MIN_WORDS or more). */
  recipe: string[] | null;
  /** A company's menu about itself (KIND_MENU_MIN_ITEMS or more). */
  company: string[] | null;
  /** A school's or a course seller's menu. */
  school: string[] | null;
  /** A newsroom's sports desk: its sports and leagues. */
  sports: string[] | null;
  /** A newsroom's menu of journalism's kinds. */
  genres: string[] | null;
  /** A shop's menu about buying (SHOP_MENU_MIN_ITEMS or more). */
  shop: string[] | null;
  /** A newspaper's reader features, one item a family (NEWSPAPER_FEATURE_MIN_FAMILIES or more families). */
  features: string[] | null;
  /** A catalogue's product pages (PRODUCT_LINKS_MIN or more distinct URLs). */
  products: string[] | null;
  /** The page's own link to its author's "About me" page. */
  aboutMe: PageLink | null;
}

/**
 * Every kind of menu a page's own links make, read in one pass: each link's anchor is read as a menu item once (a
 * front page has a hundred links and more, and a contract run reads every domain's).
 */
export function readSiteMenus(links: readonly PageLink[]): SiteMenus {
  const recipe = new Set<string>();
  const company = new Set<string>();
  const school = new Set<string>();
  const sports = new Set<string>();
  const genres = new Set<string>();
  const features = new Map<string, string>();
  const shop = new Set<string>();
  const products = new Set<string>();
  let aboutMe: PageLink | null = null;
  for (const link of links) {
    if (!link.internal) continue;
    if (PRODUCT_PAGE.test(link.url)) products.add(link.url);
    if (link.anchor.length > 40) continue;
    const item = menuItem(link.anchor);
    if (item === '') continue;
    const course = courseOf(item);
    if (course !== null) recipe.add(course);
    if (COMPANY_MENU_ITEMS.has(item)) company.add(item);
    if (SCHOOL_MENU_ITEMS.has(item)) school.add(item);
    const sport = sportOf(item);
    if (sport !== null) sports.add(sport);
    if (NEWSROOM_GENRE_ITEMS.has(item)) genres.add(item);
    if (SHOP_MENU_ITEMS.has(item) || SHOP_ALL_OF.test(item)) shop.add(item);
    const family = NEWSPAPER_FEATURES.get(item);
    if (family !== undefined && !features.has(family)) features.set(family, item);
    if (aboutMe === null && ABOUT_ME.test(item)) aboutMe = link;
  }
  const atLeast = (found: Set<string>, min: number) => (found.size >= min ? [...found] : null);
  return {
    recipe: atLeast(recipe, RECIPE_MENU_MIN_WORDS),
    company: atLeast(company, KIND_MENU_MIN_ITEMS),
    school: atLeast(school, KIND_MENU_MIN_ITEMS),
    sports: atLeast(sports, KIND_MENU_MIN_ITEMS),
    genres: atLeast(genres, KIND_MENU_MIN_ITEMS),
    features: atLeast(new Set(features.values()), NEWSPAPER_FEATURE_MIN_FAMILIES),
    shop: atLeast(shop, SHOP_MENU_MIN_ITEMS),
    products: atLeast(products, PRODUCT_LINKS_MIN),
    aboutMe,
  };
}
