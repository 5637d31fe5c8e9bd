// The words page-facts.ts looks for: news section names in many languages, shop and recipe vocabulary, parked-page
// phrases and hosts, byline prefixes. Data only, kept apart so the parser stays readable.

/**
 * Section names a newsroom's navigation carries, by section. Core sections are what sets a newspaper apart from a
 * blog or a shop (politics, economy, sport, world, opinion, national, society, crime); the others (culture,
 * science, tech, health…) appear on magazines and blogs too and count for less.
 */
// biome-ignore format: a word list reads better packed than one word a line
export const CORE_SECTIONS: Readonly<Record<string, readonly string[]>> = {
  politics: [
    'politics', 'political', 'politik', 'politique', 'política', 'politica', 'politiek', 'polityka',
    'политика', 'siyaset', 'politika', 'πολιτική', 'polityka', 'politiikka', 'politikk', 'poliitika',
    'politică', 'política', 'politics & government', '政治', '时政', '時政', '政治・行政', '정치', 'سياسة', 'سیاست',
    'פוליטיקה', 'राजनीति', 'การเมือง', 'chính trị', 'politiek', 'politički', 'politikë',
    'політика', 'elections', 'election', 'congress', 'white house', 'parliament', 'wahlen', 'élections', 'elecciones', 'eleições', 'elezioni',
  ],
  economy: [
    'business', 'economy', 'economics', 'finance', 'markets', 'money', 'wirtschaft', 'finanzen', 'économie',
    'economie', 'éco', 'economía', 'negocios', 'economia', 'finanza', 'mercati', 'gospodarka', 'biznes',
    'finanse', 'экономика', 'бизнес', 'финансы', 'ekonomi', 'ekonomika', 'talous', 'økonomi', 'näringsliv',
    'οικονομία', 'gazdaság', 'economie', 'negócios', 'dinheiro', '经济', '經濟', '财经', '財經', '経済', 'ビジネス', '경제',
    'اقتصاد', 'כלכלה', 'व्यापार', 'अर्थव्यवस्था', 'เศรษฐกิจ', 'kinh tế', 'ekonomija', 'bisnis',
    'економіка', 'икономика', 'privreda', 'gospodarstvo', 'biznis', 'бізнес', 'фінанси', 'финанси', 'hospodárstvo', 'ekonomie', 'afaceri', 'ekonomika ir verslas',
  ],
  sport: [
    'sport', 'sports', 'deportes', 'deporte', 'esporte', 'esportes', 'desporto', 'sportivo', 'calcio',
    'football', 'fußball', 'fussball', 'спорт', 'spor', 'urheilu', 'idrett', 'αθλητισμός', 'σπορ', 'sporty',
    'šport', 'sportas', '体育', '體育', 'スポーツ', '스포츠', 'رياضة', 'ورزش', 'ספורט', 'खेल', 'กีฬา', 'thể thao',
    'olahraga', 'futebol',
  ],
  world: [
    'world', 'international', 'foreign', 'global', 'welt', 'ausland', 'international', 'monde', 'mundo',
    'internacional', 'mondo', 'esteri', 'internazionale', 'buitenland', 'wereld', 'świat', 'zagranica',
    'мир', 'в мире', 'dünya', 'utrikes', 'ulkomaat', 'utenriks', 'udland', 'κόσμος', 'nagyvilág', 'svět',
    'zahraničí', '国际', '國際', '国際', '世界', '국제', '세계', 'عالم', 'دولي', 'العالم', 'جهان', 'עולם', 'दुनिया',
    'विदेश', 'ต่างประเทศ', 'thế giới', 'dunia', 'internasional',
    'світ', 'у світі', 'свят', 'svijet', 'svet', 'свет', 'externe', 'internațional', 'extranjero', 'zahraničie', 'pasaulis', 'pasaulē', 'maailm',
  ],
  opinion: [
    'opinion', 'opinions', 'commentary', 'editorial', 'editorials', 'columns', 'columnists', 'meinung',
    'kommentar', 'kommentare', 'tribune', 'débats', 'opinión', 'opinião', 'opinioni', 'commenti', 'opinie',
    'mening', 'opinie', 'мнения', 'мнение', 'колумнисты', 'görüş', 'yazarlar', 'debatt', 'ledare',
    'mielipide', 'γνώμη', 'απόψεις', 'vélemény', 'názory', '评论', '評論', '社説', 'オピニオン', '오피니언', '사설', 'رأي',
    'مقالات', 'דעות', 'विचार', 'ความคิดเห็น', 'opini',
  ],
  national: [
    'national', 'nation', 'local', 'local news', 'regional', 'inland', 'deutschland', 'inland', 'national',
    'france', 'société', 'nacional', 'nacionales', 'españa', 'brasil', 'país', 'cronaca', 'italia',
    'binnenland', 'kraj', 'polska', 'россия', 'в россии', 'türkiye', 'inrikes', 'sverige', 'kotimaa',
    'innenriks', 'indland', 'ελλάδα', 'belföld', 'domácí', '国内', '國內', '社会', '사회', '전국', 'محليات', 'محلي',
    'ישראל', 'देश', 'राज्य', 'ในประเทศ', 'thời sự', 'nasional', 'uk', 'us', 'u.s.', 'metro', 'city', 'stadt',
    'region', 'régions',
    'україна', 'в україні', 'bih', 'hrvatska', 'srbija', 'србија', 'românia', 'българия', 'slovensko', 'slovenija', 'lietuva', 'latvija', 'eesti', 'crna gora', 'регіони', 'регионы', 'regioni', 'regiony',
  ],
  society: [
    'society', 'gesellschaft', 'sociedad', 'società', 'sociedade', 'społeczeństwo', 'общество', 'toplum',
    'samhälle', 'κοινωνία', 'xã hội', 'مجتمع',
    'суспільство', 'društvo', 'spoločnosť', 'společnost', 'societate',
  ],
  crime: [
    'crime', 'justice', 'courts', 'justiz', 'faits divers', 'justicia', 'sucesos', 'policía', 'polizia',
    'giustizia', 'policja', 'происшествия', 'криминал', 'asayiş', 'polis', 'brott', 'rikos', '事件', '사건사고',
    'حوادث',
    'crna hronika', 'hronika', 'kronika', 'кримінал', 'пригоди', 'krimi', 'eveniment', 'evenimente',
  ],
};

// biome-ignore format: a word list reads better packed than one word a line
export const OTHER_SECTIONS: Readonly<Record<string, readonly string[]>> = {
  culture: [
    'culture', 'arts', 'kultur', 'feuilleton', 'cultura', 'cultuur', 'kultura', 'культура', 'kültür',
    'sanat', 'πολιτισμός', '文化', '문화', 'ثقافة', 'תרבות',
    'cultură', 'kultúra', 'kultūra', 'kultuur',
  ],
  science: [
    'science', 'wissen', 'wissenschaft', 'sciences', 'ciencia', 'ciência', 'scienza', 'wetenschap', 'nauka',
    'наука', 'bilim', 'vetenskap', '科学', '科技', '과학', 'علوم',
  ],
  technology: [
    'technology', 'tech', 'technik', 'digital', 'tecnología', 'tecnologia', 'technologie', 'technologia',
    'технологии', 'teknoloji', 'teknik', '科技', 'テクノロジー', 'it', 'تكنولوجيا',
  ],
  health: [
    'health', 'gesundheit', 'santé', 'salud', 'saúde', 'salute', 'gezondheid', 'zdrowie', 'здоровье',
    'sağlık', 'hälsa', '健康', '건강', 'صحة',
  ],
  entertainment: [
    'entertainment', 'showbiz', 'celebrity', 'unterhaltung', 'people', 'espectáculos', 'entretenimiento',
    'spettacoli', 'entretenimento', 'famosos', 'rozrywka', 'шоу-бизнес', 'magazin', 'eğlence', 'nöje', '娱乐',
    '娛樂', '芸能', '연예', 'فن',
  ],
  education: [
    'education', 'bildung', 'éducation', 'educación', 'educação', 'scuola', 'onderwijs', 'edukacja',
    'образование', 'eğitim', '教育', '교육',
  ],
  weather: [
    'weather', 'wetter', 'météo', 'tiempo', 'meteo', 'tempo', 'weer', 'pogoda', 'погода', 'hava durumu',
    'väder', '天气', '天気', '날씨', 'طقس',
  ],
};

/** Script-free languages: a section word may sit inside a longer anchor ("国际新闻"), not as its own token. */
export const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

/**
 * A link's whole text that asks a visitor to buy software or services (pricing, a demo, a trial, sales): one makes a
 * company's own site. Newsrooms sell subscriptions, never with these words.
 */
export const SALES_LINK_TEXT =
  /^(?:pricing|plans (?:&|and) pricing|(?:request|book|get|schedule) a demo|contact sales|talk to sales|(?:start (?:your |a )?)?free trial|start for free|sign up (?:for )?free|try (?:it )?(?:for )?free|demo anfordern|kostenlos testen|essai gratuit|demander une d[ée]mo|prueba gratis|solicitar (?:una )?demo)$/i;
/** A link's whole text naming a company's own catalogue or clientele: two of them make a corporate menu. */
export const COMPANY_MENU_TEXT =
  /^(?:products|our products|solutions|our solutions|industries|customers|partners)$/i;
/**
 * A link's whole text from the menu of an organisation that campaigns, researches or gathers members (an NGO, a
 * think tank, a trade body, a public agency): two of them make its site. Newsrooms' menus name sections and
 * subscriptions; "Donate", "Membership", "Events" and "Careers" are left out because non-profit newsrooms use them too.
 */
// biome-ignore format: a word list reads better packed than one phrase a line
export const ORGANISATION_MENU_TEXT = new RegExp(
  `^(?:${[
    'get involved', 'take action', 'our work', 'what we do', 'who we are', 'our mission', 'publications', 'campaigns',
    'advocacy', 'public policy', 'policy areas', 'board of directors', 'find an expert', 'member benefits',
    'our impact', 'annual reports?', 'our programs', 'case stud(?:y|ies)', 'members? area', 'member cent(?:er|re)',
    'unsere arbeit', 'publikationen', 'mitglied werden', 'engagieren', 'nos actions', 'nos missions', 'agir',
    'adh[ée]rer', 'nuestro trabajo', 'publicaciones', 'qui[ée]nes somos', 'campañas', 'hazte socio',
    // A party's or an association's: join, its statutes, its programme, its group in parliament.
    'af[ií]liate', 'afiliaci[óo]n', '[úu]nete', 'estatutos', 'statuts', 'satzung', 'statuto', 'tesseramento',
    'word lid', 'lid worden', 'bli medlem', 'bliv medlem', 'liity jäseneksi', 'wahlprogramm', 'programa electoral',
    'programme électoral', 'programma elettorale', 'fraktion',
  ].join('|')})$`,
  'i',
);

/** Anchor texts or hrefs that put something in a cart, in several languages. */
// biome-ignore format: a word list reads better packed than one word a line
export const CART_WORDS: readonly string[] = [
  'add to cart', 'add to basket', 'add to bag', 'buy now', 'checkout', 'view cart', 'shopping cart',
  'your cart', 'in den warenkorb', 'warenkorb', 'zur kasse', 'jetzt kaufen', 'ajouter au panier',
  'mon panier', 'panier', 'añadir al carrito', 'agregar al carrito', 'comprar ahora', 'carrito',
  'aggiungi al carrello', 'carrello', 'adicionar ao carrinho', 'carrinho', 'in winkelwagen', 'winkelwagen',
  'dodaj do koszyka', 'koszyk', 'в корзину', 'корзина', 'sepete ekle', 'sepetim', 'lägg i varukorgen',
  'varukorg', 'ostoskori', 'カートに入れる', 'カート', '加入购物车', '购物车', '장바구니', 'أضف إلى السلة', 'سلة التسوق',
];
/** Cart and checkout paths of shop software. */
export const CART_PATH =
  /\/(cart|basket|checkout|warenkorb|panier|carrito|carrello|koszyk|sepet)(\/|\?|$)|add-to-cart=|[?&]add_to_cart/i;
/** Class names and script hosts of shop software. */
export const SHOP_MARKUP =
  /\b(woocommerce|add_to_cart_button|single_add_to_cart|product-price|shopify-section|shopify-payment|cart-drawer|add-to-cart|addtocart|buy-button|price-box|product-card)\b/i;

/** Recipe plugins (WP Recipe Maker, Tasty Recipes, Mediavine Create) and their usual card class names. */
export const RECIPE_PLUGIN_CLASS =
  /\b(wprm-[a-z-]+|tasty-recipes[a-z-]*|mv-create-[a-z-]+|recipe-card[a-z-]*|wp-recipe-maker|easyrecipe|zlrecipe|cooked-recipe)\b/i;
/** Words of a recipe card, several languages. Two distinct ones are needed: a news story may say "ingredients". */
// biome-ignore format: a word list reads better packed than one word a line
export const RECIPE_WORDS: readonly string[] = [
  'ingredients', 'prep time', 'cook time', 'total time', 'servings', 'print recipe', 'jump to recipe',
  'zutaten', 'zubereitung', 'ingrédients', 'temps de préparation', 'ingredientes', 'tiempo de preparación',
  'modo de preparo', 'ingredienti', 'preparazione', 'ingrediënten', 'bereiding', 'składniki',
  'przygotowanie', 'ингредиенты', 'malzemeler', 'ingredienser', '材料', '作り方', '재료',
];

/**
 * The heading of a "most read" list: a newsroom ranks its own stories by readers. Only reading is counted: "most
 * popular" and "most viewed" were left out, since recipe blogs, shops and platforms print them too (on the tuning
 * halves of the real-page sets 24 of 225 pages that are not news did). Matched in the lower-cased visible text,
 * as a whole phrase.
 */
// biome-ignore format: a word list reads better packed than one word a line
export const MOST_READ_PHRASES: readonly string[] = [
  'most read', 'most-read', 'most emailed', 'meistgelesen', 'meistgelesene', 'meist gelesen', 'am meisten gelesen',
  'lo más leído', 'más leídas', 'más leídos', 'les plus lus', 'les plus lues', 'i più letti', 'più letti',
  'più lette', 'mais lidas', 'mais lidos', 'najczęściej czytane', 'najchętniej czytane', 'meest gelezen',
  'mest lästa', 'mest läst', 'mest lest', 'mest leste', 'mest læste', 'mest læst', 'luetuimmat', 'eniten luetut',
  'самое читаемое', 'самые читаемые', 'найчитаніше', 'en çok okunan', 'nejčtenější', 'najčítanejšie',
  'legolvasottabb', 'cele mai citite', 'アクセスランキング', 'よく読まれている', '많이 본 뉴스', '많이 본 기사',
  '많이 본', '点击排行', '阅读排行', 'الأكثر قراءة', 'הנקראים ביותר', 'paling banyak dibaca', 'đọc nhiều nhất',
];

/** What a parking page says about itself. */
// biome-ignore format: a word list reads better packed than one word a line
export const PARKED_PHRASES: readonly string[] = [
  'domain is for sale', 'domain may be for sale', 'buy this domain', 'this domain is parked',
  'domain parking', 'parked free', 'parked domain', 'domain name is for sale',
  'make an offer on this domain', 'inquire about this domain', 'this web page is parked',
  'diese domain steht zum verkauf', 'diese domain kaufen', 'ce domaine est à vendre',
  'este dominio está a la venta', 'questo dominio è in vendita', 'domein is te koop',
  'domena jest na sprzedaż', 'домен продается', 'bu alan adı satılıktır', 'hugedomains',
];
/** Registrable domains of parking and domain-sale services, seen in a parked page's links and scripts. */
// biome-ignore format: a word list reads better packed than one word a line
export const PARKING_HOSTS: ReadonlySet<string> = new Set([
  'sedo.com', 'sedoparking.com', 'parkingcrew.net', 'bodis.com', 'dan.com', 'afternic.com',
  'hugedomains.com', 'above.com', 'undeveloped.com', 'domainmarket.com', 'parklogic.com', 'dsnparking.com',
  'namebright.com', 'domainnamesales.com', 'buydomains.com', 'atom.com', 'squadhelp.com',
  'parking.godaddy.com', 'smartname.com',
]);

/** "By Jane Doe", "Von Max Muster", "Par …": a byline's prefix before a capitalised name. */
export const BYLINE_TEXT =
  /^\s*([Bb]y|[Vv]on|[Pp]ar|[Pp]or|[Dd]i|[Dd]oor|[Aa]v|[Aa]f|[Pp]rzez|[Аа]втор:?|[Yy]azan:?|[Kk]irjoittanut)\s+\p{Lu}[\p{L}'’.-]+(\s+\p{Lu}[\p{L}'’.-]+){0,3}\s*$/u;
/** Class names of byline and author elements. */
export const BYLINE_CLASS =
  /(^|[\s_-])(byline|by-line|author|autor|auteur|article-author|writer|reporter)([\s_-]|$)/i;
