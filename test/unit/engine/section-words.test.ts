import { describe, expect, it } from 'vitest';
import { sectionOfAnchor } from '../../../src/engine/section-words.js';

/** Menu anchors and the section each names, by language: the words news fronts' menus carry. */
// biome-ignore format: a case table reads better packed than one pair a line
const SECTIONS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  catalan: [
    ['Política', 'politics'], ['Món', 'world'], ['Societat', 'society'], ['Opinió', 'opinion'],
    ['Esports', 'sport'], ['Successos', 'crime'], ['Comarques', 'national'], ['Economia', 'economy'],
    ['Salut', 'health'], ['El temps', 'weather'],
  ],
  basque: [
    ['Politika', 'politics'], ['Mundua', 'world'], ['Kirolak', 'sport'], ['Ekonomia', 'economy'],
    ['Iritzia', 'opinion'], ['Gizartea', 'society'], ['Eguraldia', 'weather'],
  ],
  galician: [['Deportes', 'sport'], ['Sociedade', 'society'], ['Tecnoloxía', 'technology']],
  bengali: [
    ['খেলা', 'sport'], ['রাজনীতি', 'politics'], ['আন্তর্জাতিক', 'world'], ['জাতীয়', 'national'],
    ['মতামত', 'opinion'], ['বিনোদন', 'entertainment'], ['অর্থনীতি', 'economy'],
  ],
  hindi: [
    ['राजनीति', 'politics'], ['राजनीति समाचार', 'politics'], ['खेल', 'sport'], ['दुनिया', 'world'],
    ['बिज़नेस', 'economy'], ['देश', 'national'], ['उत्तर प्रदेश', 'national'], ['क्राइम', 'crime'],
    ['मनोरंजन', 'entertainment'], ['स्वास्थ्य', 'health'],
  ],
  nepali: [['खेलकुद', 'sport'], ['अर्थ', 'economy'], ['प्रदेश', 'national'], ['विचार', 'opinion']],
  marathi: [['राजकारण', 'politics'], ['क्रीडा', 'sport'], ['महाराष्ट्र', 'national']],
  gujarati: [['રાજકારણ', 'politics'], ['સ્પોર્ટ્સ', 'sport'], ['ગુજરાત', 'national']],
  punjabi: [['ਰਾਜਨੀਤੀ', 'politics'], ['ਖੇਡਾਂ', 'sport'], ['ਪੰਜਾਬ', 'national']],
  tamil: [['அரசியல்', 'politics'], ['விளையாட்டு', 'sport'], ['உலகம்', 'world'], ['தமிழ்நாடு', 'national']],
  telugu: [['రాజకీయాలు', 'politics'], ['క్రీడలు', 'sport'], ['తెలంగాణ', 'national']],
  malayalam: [['രാഷ്ട്രീയം', 'politics'], ['കായികം', 'sport'], ['കേരളം', 'national']],
  kannada: [['ರಾಜಕೀಯ', 'politics'], ['ಕ್ರೀಡೆ', 'sport'], ['ರಾಜ್ಯ', 'national']],
  sinhala: [['දේශපාලන', 'politics'], ['ක්‍රීඩා', 'sport'], ['ව්‍යාපාර', 'economy'], ['ව්යාපාර', 'economy']],
  urdu: [['سیاست', 'politics'], ['کھیل', 'sport'], ['کاروبار', 'economy'], ['پاکستان', 'national']],
  persian: [
    ['سیاسی', 'politics'], ['اقتصادی', 'economy'], ['ورزشی', 'sport'], ['بین‌الملل', 'world'],
    ['بینالملل', 'world'], ['اجتماعی', 'society'], ['فرهنگی', 'culture'],
  ],
  arabic: [
    ['السياسة', 'politics'], ['الاقتصاد', 'economy'], ['الرياضة', 'sport'], ['عربي ودولي', 'world'],
    ['الرأي', 'opinion'], ['محليات', 'national'], ['الحوادث', 'crime'], ['الثقافة', 'culture'],
  ],
  hebrew: [['חדשות בעולם', 'world'], ['פלילים', 'crime'], ['בריאות', 'health']],
  swahili: [
    ['Siasa', 'politics'], ['Michezo', 'sport'], ['Biashara', 'economy'], ['Kimataifa', 'world'],
    ['Burudani', 'entertainment'], ['Afya', 'health'],
  ],
  amharic: [['ፖለቲካ', 'politics'], ['ስፖርት', 'sport'], ['ዓለም አቀፍ', 'world']],
  hausa: [['Siyasa', 'politics'], ['Wasanni', 'sport'], ['Duniya', 'world']],
  filipino: [['Pulitika', 'politics'], ['Palakasan', 'sport'], ['Bansa', 'national'], ['Showbiz', 'entertainment']],
  'malay and indonesian': [
    ['Sukan', 'sport'], ['Antarabangsa', 'world'], ['Bisnes', 'economy'], ['Hiburan', 'entertainment'],
    ['Daerah', 'national'], ['Kesihatan', 'health'],
  ],
  vietnamese: [['Kinh doanh', 'economy'], ['Quốc tế', 'world'], ['Pháp luật', 'crime'], ['Giải trí', 'entertainment']],
  thai: [
    ['การเมือง', 'politics'], ['ข่าวการเมือง', 'politics'], ['ข่าวกีฬา', 'sport'], ['ต่างประเทศ', 'world'],
    ['ข่าวภูมิภาค', 'national'], ['อาชญากรรม', 'crime'], ['บันเทิง', 'entertainment'],
  ],
  lao: [['ການເມືອງ', 'politics'], ['ຂ່າວກິລາ', 'sport']],
  khmer: [['នយោបាយ', 'politics'], ['កីឡា', 'sport'], ['ព័ត៌មានអន្តរជាតិ', 'world'], ['ព័ត៌មានជាតិ', 'national']],
  burmese: [['နိုင်ငံရေး', 'politics'], ['အားကစား', 'sport'], ['နိုင်ငံတကာ', 'world']],
  'chinese, japanese, korean': [
    ['国内', 'national'], ['国際', 'world'], ['経済', 'economy'], ['社会', 'national'], ['社會', 'national'],
    ['政治', 'politics'], ['体育', 'sport'], ['娱乐', 'entertainment'], ['财经', 'economy'], ['军事', 'world'],
    ['軍事新聞', 'world'], ['科技', 'science'], ['港聞', 'national'], ['국제', 'world'],
  ],
  turkish: [['Gündem', 'national'], ['Köşe Yazarları', 'opinion'], ['Spor', 'sport']],
  greek: [['ΑΘΛΗΤΙΚΑ', 'sport'], ['Διεθνή', 'world'], ['Υγεία', 'health']],
  romanian: [['Vremea', 'weather'], ['Actualitate', 'national'], ['Opinii', 'opinion'], ['Justiție', 'crime']],
  hungarian: [['Külföld', 'world'], ['Belföld', 'national'], ['Tudomány', 'science']],
  'czech and slovak': [['Byznys', 'economy'], ['Zahraničí', 'world'], ['Regióny', 'national']],
  slovene: [['Tujina', 'world'], ['Črna kronika', 'crime'], ['Mnenja', 'opinion']],
  'croatian, serbian, bosnian': [['Svijet', 'world'], ['Crna kronika', 'crime'], ['Друштво', 'society'], ['Свијет', 'world']],
  'bulgarian and macedonian': [['Региони', 'national'], ['Македонија', 'national'], ['Колумни', 'opinion']],
  albanian: [['Aktualitet', 'national'], ['Shoqëri', 'society'], ['Kulturë', 'culture']],
  baltic: [['Verslas', 'economy'], ['Ārzemēs', 'world'], ['Majandus', 'economy'], ['Arvamus', 'opinion']],
  nordic: [
    ['Erhverv', 'economy'], ['Utenriks', 'world'], ['Meninger', 'opinion'], ['Innlent', 'national'],
    ['Íþróttir', 'sport'], ['Pääkirjoitus', 'opinion'], ['Utrikes', 'world'],
  ],
  'dutch, irish, welsh': [['Regio', 'national'], ['Spórt', 'sport'], ['Chwaraeon', 'sport']],
  'caucasus and central asia': [
    ['Siyasət', 'politics'], ['İdman', 'sport'], ['Саясат', 'politics'], ['Siyosat', 'politics'],
    ['პოლიტიკა', 'politics'], ['Սպորտ', 'sport'],
  ],
  'ukrainian, russian, polish': [["Здоров'я", 'health'], ['В стране', 'national'], ['Publicystyka', 'opinion']],
  // A list of topics, each item read on its own; a desk's word with one more word beside it.
  'lists and qualified desks': [
    ['Tourism, travel & tech', 'technology'], ['Politics and society', 'politics'], ['Health & wellness', 'health'],
    ['New York elections', 'politics'], ['US politics', 'politics'], ['Personal finance', 'economy'],
  ],
  // A stock exchange's desk (finance.si's "Borza", sixteenth set).
  'german, slovenian, czech, russian': [['Börse', 'economy'], ['Borza', 'economy'], ['Burza', 'economy'], ['Биржа', 'economy']],
};

/** Anchors that name no news desk: site pages, shop and blog menus, language pickers, headlines. */
// biome-ignore format: a case list reads better packed than one anchor a line
const NOT_SECTIONS: readonly string[] = [
  // Site pages, several languages.
  'Privacy policy', 'Política de privacidad', 'Политика конфиденциальности', 'سياسة الخصوصية', 'Πολιτική απορρήτου',
  'سیاست حریم خصوصی', 'Politika zasebnosti', 'Privātuma politika', 'Gizlilik politikası', 'Politica de confidențialitate',
  'Zásady ochrany soukromí', 'Adatvédelmi politika', 'About us', 'Über uns', 'Qui sommes-nous', 'Contact', 'हमारे बारे में', 'আমাদের সম্পর্কে',
  'เกี่ยวกับเรา', 'Home', 'Blog', 'News', 'Shop',
  // Shop and blog menus.
  'Men', 'Women', 'Kids', 'Sale', 'New arrivals', 'Herren', 'Damen', 'Kinder', 'Hombre', 'Mujer', 'Botas',
  'Zapatos', 'Barn', 'Radno vreme', 'Lifestyle', 'Recipes', 'Mon', 'Tervis tumblers', 'Tekno RC',
  // Words left out because they named something else on the labelled pages: a food site's "Madens verden", an
  // Indonesian Islamic blog's "Hukum" (Islamic law), "Kesehatan" and "Pendidikan", a country picker's "Danmark",
  // a football club (Osasuna), a surname (Tiede).
  'Madens verden', 'Hukum', 'Kesehatan', 'Pendidikan', 'Danmark', 'Norge', 'Osasuna', 'Tamy Fabienne Tiede',
  // A desk's word inside a longer name: a theme park, a movement, a firm's service, a magazine's topic (parents.com,
  // tibet.net, pwc.ro).
  'Walt Disney World', 'Global Tibet Movement', 'Global mobility services', 'Celebrity baby names',
  // Language pickers.
  'English', 'Deutsch', 'Español (México)', 'Deutschland (DE)', 'Global (EN)', 'Schweiz (de-CH)',
  // In the first person: a writer's own topic (a personal site's tag, gwern.net) or a reader's account page.
  'Weather & my mood', 'My politics', 'Meine Nachrichten aus der Politik', 'Mijn sport', 'Мои новости',
  // Headlines that hold a section word are not menu items.
  'Sport minister resigns after the cup final scandal',
  'प्रधानमंत्री ने आज संसद में राजनीति पर लंबा भाषण दिया और विपक्ष ने जवाब दिया',
  'นายกรัฐมนตรีแถลงข่าวการเมืองเรื่องงบประมาณประจำปีในวันนี้',
  '国际奥委会主席今天访问北京并会见了体育部长',
];

describe('sectionOfAnchor', () => {
  for (const [language, cases] of Object.entries(SECTIONS)) {
    it.each(cases)(`${language}: %s names the %s desk`, (anchor, section) => {
      expect(sectionOfAnchor(anchor)?.section).toBe(section);
    });
  }

  it.each(NOT_SECTIONS)('%s names no desk', (anchor) => {
    expect(sectionOfAnchor(anchor)).toBeNull();
  });

  it('keeps the anchor as found, and gives the same frozen answer twice', () => {
    const first = sectionOfAnchor('Esports');
    expect(first).toEqual({ section: 'sport', core: true, word: 'esports' });
    expect(sectionOfAnchor('Esports')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
