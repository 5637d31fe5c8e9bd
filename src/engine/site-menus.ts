// Menus of kinds of site that are not newsrooms, printed on every page of theirs, the front included.
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

/** A link's anchor as a menu item reads: lower case, spaces collapsed, no punctuation or symbol at either end. */
function menuItem(anchor: string): string {
  return anchor
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '');
}

/** The menu's words when a page's own links name RECIPE_MENU_MIN_WORDS or more courses, meals or diets; else null. */
export function recipeMenu(links: readonly PageLink[]): string[] | null {
  const found = new Set<string>();
  for (const link of links) {
    if (!link.internal || link.anchor.length > 40) continue;
    const anchor = menuItem(link.anchor);
    const word = RECIPE_MENU_WORDS.has(anchor) ? anchor : anchor.replace(RECIPES_WORD, '');
    if (RECIPE_MENU_WORDS.has(word)) found.add(word);
  }
  return found.size >= RECIPE_MENU_MIN_WORDS ? [...found] : null;
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

/** The anchor of a page's own link to its author's "About me" page, or null. */
export function aboutMeLink(links: readonly PageLink[]): PageLink | null {
  for (const link of links)
    if (link.internal && link.anchor.length <= 40 && ABOUT_ME.test(menuItem(link.anchor))) return link;
  return null;
}

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
 * what a paper's sports menu lists under its Sport desk, several languages. The one kind of menu here that reads for
 * news: sports shops list sports too, and their shop signs say what they are.
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

/** The items of `menu` among a page's own links when there are KIND_MENU_MIN_ITEMS or more; else null. */
function kindMenu(
  links: readonly PageLink[],
  menu: ReadonlySet<string>,
  itemOf: (item: string) => string | null = (item) => (menu.has(item) ? item : null),
): string[] | null {
  const found = new Set<string>();
  for (const link of links) {
    if (!link.internal || link.anchor.length > 40) continue;
    const item = itemOf(menuItem(link.anchor));
    if (item !== null) found.add(item);
  }
  return found.size >= KIND_MENU_MIN_ITEMS ? [...found] : null;
}

/** A sport or league with one word beside it is that sport's desk: "Български футбол", "College football". */
function sportOf(item: string): string | null {
  if (SPORTS_DESK_ITEMS.has(item)) return item;
  const words = item.split(' ');
  if (words.length !== 2) return null;
  const [first, last] = words as [string, string];
  return SPORTS_DESK_ITEMS.has(last) ? last : SPORTS_DESK_ITEMS.has(first) ? first : null;
}

/** A company's own menu on a page (its items), or null. */
export function companyMenu(links: readonly PageLink[]): string[] | null {
  return kindMenu(links, COMPANY_MENU_ITEMS);
}

/** A school's or a course seller's own menu on a page (its items), or null. */
export function schoolMenu(links: readonly PageLink[]): string[] | null {
  return kindMenu(links, SCHOOL_MENU_ITEMS);
}

/** A newsroom's sports desk menu on a page (its sports and leagues), or null. */
export function sportsDesks(links: readonly PageLink[]): string[] | null {
  return kindMenu(links, SPORTS_DESK_ITEMS, sportOf);
}

/** A newsroom's menu of journalism's kinds on a page (its items), or null. */
export function newsroomGenres(links: readonly PageLink[]): string[] | null {
  return kindMenu(links, NEWSROOM_GENRE_ITEMS);
}
