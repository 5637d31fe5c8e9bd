// The words page-facts.ts looks for: news section names in many languages, shop and recipe vocabulary, parked-page
// phrases and hosts, byline prefixes. Data only, kept apart so the parser stays readable.

/**
 * Section names a newsroom's navigation carries, by section, in the forms menus use. Each list holds the major
 * European languages first, then lines by language group: "Indic" is Bengali, Hindi, Marathi, Nepali, Gujarati,
 * Punjabi, Tamil, Telugu, Malayalam, Kannada and Sinhala; "Africa" Swahili, Amharic, Hausa and Yoruba; "South-east
 * Asia" Filipino, Malay/Indonesian, Vietnamese, Thai, Khmer, Burmese and Lao. A word of 4+ characters counts as one
 * token of a short anchor, so a word that is also a shop's, a blog's or a company's menu item is left out ("Bota",
 * Albanian world and a Spanish boot; Welsh "Barn"; "Vreme", Serbian weather and opening hours). Left out after the
 * labelled pages showed them naming something else: Indonesian "Hukum" (Islamic law on an Islamic blog), "Kesehatan"
 * and "Pendidikan" (the same blog's menu read news with them), Danish/Norwegian/Swedish "Verden"/"Världen" (a food
 * site's "Madens verden"), "Danmark"/"Norge" (country pickers), Basque "Osasuna" (a football club), Finnish "Tiede"
 * (a surname), Estonian "Tervis" (a brand), Indonesian "Tekno" (a brand). Core sections are what sets a newspaper apart from a
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
    // Indic
    'রাজনীতি', 'चुनाव', 'அரசியல்', 'రాజకీయాలు', 'రాజకీయం', 'राजकारण', 'રાજકારણ', 'રાજનીતિ', 'ਰਾਜਨੀਤੀ', 'രാഷ്ട്രീയം',
    'ರಾಜಕೀಯ', 'දේශපාලන', 'දේශපාලනය',
    // Urdu, Persian, Arabic, Hebrew
    'سیاسی', 'انتخابات', 'السياسة', 'سياسية', 'מדיני',
    // Africa
    'siasa', 'ፖለቲካ', 'siyasa', 'òṣèlú',
    // South-east and East Asia
    'pulitika', 'pemilu', 'នយោបាយ', 'နိုင်ငံရေး', 'ການເມືອງ', '选举', '選舉', '選挙',
    // Europe, Caucasus, Central Asia
    'stjórnmál', 'polaitíocht', 'gwleidyddiaeth', 'siyasət', 'саясат', 'siyosat', 'сиёсат', 'პოლიტიკა',
    'քաղաքականություն',
  ],
  economy: [
    'business', 'economy', 'economics', 'finance', 'markets', 'money', 'wirtschaft', 'finanzen', 'économie',
    'economie', 'éco', 'economía', 'negocios', 'economia', 'finanza', 'mercati', 'gospodarka', 'biznes',
    'finanse', 'экономика', 'бизнес', 'финансы', 'ekonomi', 'ekonomika', 'talous', 'økonomi', 'näringsliv',
    'οικονομία', 'gazdaság', 'economie', 'negócios', 'dinheiro', '经济', '經濟', '财经', '財經', '経済', 'ビジネス', '경제',
    'اقتصاد', 'כלכלה', 'व्यापार', 'अर्थव्यवस्था', 'เศรษฐกิจ', 'kinh tế', 'ekonomija', 'bisnis',
    'економіка', 'икономика', 'privreda', 'gospodarstvo', 'biznis', 'бізнес', 'фінанси', 'финанси', 'hospodárstvo', 'ekonomie', 'afaceri', 'ekonomika ir verslas',
    // A stock exchange's or markets' desk ("Börse", Slovenian "Borza", Czech and Croatian "Burza"): not Italian
    // "Borsa" or Spanish "Bolsa", which are also a shop's bags, nor French "Bourse", also a scholarship.
    'börse', 'borza', 'burza', 'биржа', 'märkte', 'mercados', 'markten', 'rynki',
    // Catalan, Basque, Galician
    'ekonomia',
    // Indic
    'অর্থনীতি', 'বাণিজ্য', 'बिज़नेस', 'बिजनेस', 'कारोबार', 'वाणिज्य', 'अर्थ', 'வணிகம்', 'பொருளாதாரம்', 'బిజినెస్',
    'వ్యాపారం', 'अर्थकारण', 'અર્થતંત્ર', 'વેપાર', 'બિઝનેસ', 'ਕਾਰੋਬਾਰ', 'ਵਪਾਰ', 'ബിസിനസ്', 'സാമ്പത്തികം', 'ವಾಣಿಜ್ಯ',
    'ಬಿಸಿನೆಸ್', 'ව්‍යාපාර', 'ආර්ථිකය',
    // Urdu, Persian, Arabic, Greek
    'کاروبار', 'معیشت', 'اقتصادی', 'الاقتصاد', 'οικονομικά',
    // Africa
    'biashara', 'uchumi', 'ኢኮኖሚ', 'ቢዝነስ', 'tattalin arziki',
    // South-east and East Asia
    'ekonomiya', 'negosyo', 'bisnes', 'perniagaan', 'ekbis', 'kinh doanh', 'ธุรกิจ', 'សេដ្ឋកិច្ច', 'စီးပွားရေး',
    'ເສດຖະກິດ', '产经', '產經',
    // Europe, Caucasus, Central Asia
    'byznys', 'економија', 'привреда', 'ekonomia', 'verslas', 'bizness', 'majandus', 'erhverv', 'næringsliv',
    'viðskipti', 'busnes', 'iqtisadiyyat', 'iqtisodiyot', 'иқтисодиёт', 'ეკონომიკა', 'ბიზნესი', 'տնտեսություն',
  ],
  sport: [
    'sport', 'sports', 'deportes', 'deporte', 'esporte', 'esportes', 'desporto', 'sportivo', 'calcio',
    'football', 'fußball', 'fussball', 'спорт', 'spor', 'urheilu', 'idrett', 'αθλητισμός', 'σπορ', 'sporty',
    'šport', 'sportas', '体育', '體育', 'スポーツ', '스포츠', 'رياضة', 'ورزش', 'ספורט', 'खेल', 'กีฬา', 'thể thao',
    'olahraga', 'futebol',
    // Catalan, Basque
    'esports', 'kirolak', 'kirola',
    // Indic
    'খেলা', 'খেলাধুলা', 'क्रिकेट', 'खेलकुद', 'क्रीडा', 'விளையாட்டு', 'క్రీడలు', 'స్పోర్ట్స్', 'રમતગમત', 'સ્પોર્ટ્સ',
    'ਖੇਡਾਂ', 'ਖੇਡ', 'കായികം', 'സ്പോർട്സ്', 'ಕ್ರೀಡೆ', 'ක්‍රීඩා',
    // Urdu, Persian, Arabic, Greek
    'کھیل', 'ورزشی', 'الرياضة', 'αθλητικά',
    // Africa
    'michezo', 'ስፖርት', 'wasanni',
    // South-east Asia
    'palakasan', 'isports', 'sukan', 'កីឡា', 'အားကစား', 'ກິລາ',
    // Europe, Caucasus, Central Asia
    'íþróttir', 'spórt', 'chwaraeon', 'idman', 'სპორტი', 'սպորտ',
  ],
  world: [
    'world', 'international', 'foreign', 'global', 'welt', 'ausland', 'international', 'monde', 'mundo',
    'internacional', 'mondo', 'esteri', 'internazionale', 'buitenland', 'wereld', 'świat', 'zagranica',
    'мир', 'в мире', 'dünya', 'utrikes', 'ulkomaat', 'utenriks', 'udland', 'κόσμος', 'nagyvilág', 'svět',
    'zahraničí', '国际', '國際', '国際', '世界', '국제', '세계', 'عالم', 'دولي', 'العالم', 'جهان', 'עולם', 'दुनिया',
    'विदेश', 'ต่างประเทศ', 'thế giới', 'dunia', 'internasional',
    'світ', 'у світі', 'свят', 'svijet', 'svet', 'свет', 'externe', 'internațional', 'extranjero', 'zahraničie', 'pasaulis', 'pasaulē', 'maailm',
    // Catalan, Basque
    'món', 'mundua', 'nazioartea',
    // Indic
    'আন্তর্জাতিক', 'বিশ্ব', 'विश्व', 'अंतरराष्ट्रीय', 'अंतर्राष्ट्रीय', 'अन्तर्राष्ट्रिय', 'आंतरराष्ट्रीय', 'உலகம்',
    'అంతర్జాతీయం', 'ప్రపంచం', 'દુનિયા', 'આંતરરાષ્ટ્રીય', 'વિશ્વ', 'ਦੁਨੀਆ', 'ਵਿਦੇਸ਼', 'ਅੰਤਰਰਾਸ਼ਟਰੀ', 'ലോകം',
    'അന്താരാഷ്ട്രം', 'ವಿದೇಶ', 'ಅಂತಾರಾಷ್ಟ್ರೀಯ', 'ವಿಶ್ವ', 'ජාත්‍යන්තර', 'ලෝකය', 'විදෙස්',
    // Urdu, Persian, Arabic, Hebrew, Greek
    'دنیا', 'بین الاقوامی', 'عالمی', 'بین‌الملل', 'بین الملل', 'دوليات', 'عربي ودولي', 'בעולם', 'διεθνή',
    // Africa
    'kimataifa', 'ዓለም', 'ዓለም አቀፍ', 'አለም አቀፍ', 'duniya',
    // South-east and East Asia (军事, the military desk of Chinese portals, reports mostly abroad)
    'pandaigdig', 'antarabangsa', 'quốc tế', 'អន្តរជាតិ', 'နိုင်ငံတကာ', 'ຕ່າງປະເທດ', '军事', '軍事',
    // Europe, Caucasus, Central Asia
    'külföld', 'tujina', 'свијет', 'ārzemēs', 'pasaulyje', 'välismaa', 'erlent', 'idirnáisiúnta',
    'rhyngwladol', 'әлем', 'dunyo', 'jahon', 'жаҳон', 'дунё', 'მსოფლიო', 'աշխարհ', 'միջազգային', 'бывший ссср',
  ],
  opinion: [
    'opinion', 'opinions', 'commentary', 'editorial', 'editorials', 'columns', 'columnists', 'meinung',
    'kommentar', 'kommentare', 'tribune', 'débats', 'opinión', 'opinião', 'opinioni', 'commenti', 'opinie',
    'mening', 'opinie', 'мнения', 'мнение', 'колумнисты', 'görüş', 'yazarlar', 'debatt', 'ledare',
    'mielipide', 'γνώμη', 'απόψεις', 'vélemény', 'názory', '评论', '評論', '社説', 'オピニオン', '오피니언', '사설', 'رأي',
    'مقالات', 'דעות', 'विचार', 'ความคิดเห็น', 'opini',
    // Catalan, Basque
    'opinió', 'iritzia',
    // Indic
    'মতামত', 'সম্পাদকীয়', 'संपादकीय', 'सम्पादकीय', 'ओपिनियन', 'अग्रलेख', 'தலையங்கம்', 'సంపాదకీయం', 'ఎడిటోరియల్',
    'તંત્રીલેખ', 'ਸੰਪਾਦਕੀ', 'അഭിപ്രായം', 'എഡിറ്റോറിയൽ', 'ಅಭಿಪ್ರಾಯ', 'ಸಂಪಾದಕೀಯ', 'අදහස්', 'කතුවැකිය',
    // Urdu, Persian, Arabic
    'کالم', 'اداریہ', 'سرمقاله', 'الرأي', 'آراء',
    // Africa
    'tahariri', 'አስተያየት', "ra'ayi",
    // South-east and East Asia
    'opinyon', 'kolom', 'góc nhìn', 'บทบรรณาธิการ', 'មតិ', 'အာဘော်', '观点', '觀點', '社论', '社論',
    // Europe, Caucasus, Central Asia
    'köşe yazarları', 'opinii', 'editoriale', 'komentáre', 'mnenja', 'kolumne', 'колумне', 'колумни', 'nuomonės',
    'viedokļi', 'arvamus', 'pääkirjoitus', 'debat', 'meninger', 'skoðun', 'tuairimí', 'publicystyka', 'пікір',
    'მოსაზრება', 'կարծիք',
  ],
  national: [
    'national', 'nation', 'local', 'local news', 'regional', 'inland', 'deutschland', 'inland', 'national',
    'france', 'société', 'nacional', 'nacionales', 'españa', 'brasil', 'país', 'cronaca', 'italia',
    'binnenland', 'kraj', 'polska', 'россия', 'в россии', 'türkiye', 'inrikes', 'sverige', 'kotimaa',
    'innenriks', 'indland', 'ελλάδα', 'belföld', 'domácí', '国内', '國內', '社会', '사회', '전국', 'محليات', 'محلي',
    'ישראל', 'देश', 'राज्य', 'ในประเทศ', 'thời sự', 'nasional', 'uk', 'us', 'u.s.', 'metro', 'city', 'stadt',
    'region', 'régions',
    'україна', 'в україні', 'bih', 'hrvatska', 'srbija', 'србија', 'românia', 'българия', 'slovensko', 'slovenija', 'lietuva', 'latvija', 'eesti', 'crna gora', 'регіони', 'регионы', 'regioni', 'regiony',
    // Catalan
    'comarques',
    // Indic
    'জাতীয়', 'সারাদেশ', 'সারা দেশ', 'দেশ', 'राष्ट्रीय', 'प्रदेश', 'शहर', 'राष्ट्रिय', 'தமிழ்நாடு', 'இந்தியா',
    'జాతీయం', 'తెలంగాణ', 'ఆంధ్రప్రదేశ్', 'महाराष्ट्र', 'ગુજરાત', 'દેશ', 'રાષ્ટ્રીય', 'ਪੰਜਾਬ', 'ਦੇਸ਼', 'ਰਾਸ਼ਟਰੀ',
    'കേരളം', 'ദേശീയം', 'ഇന്ത്യ', 'ರಾಜ್ಯ', 'ದೇಶ', 'ಕರ್ನಾಟಕ', 'දේශීය', 'ප්‍රාදේශීය',
    // Urdu, Persian, Arabic, Hebrew, Greek
    'پاکستان', 'ایران', 'استان‌ها', 'استانها', 'استان ها', 'محلية', 'בארץ', 'επικαιρότητα',
    // Africa
    'kitaifa', 'ሀገር አቀፍ', 'አገር አቀፍ',
    // South-east and East Asia
    'bansa', 'probinsya', 'daerah', 'trong nước', 'địa phương', 'ภูมิภาค', 'ព័ត៌មានជាតិ', 'ပြည်တွင်း', 'ໃນປະເທດ',
    '时事', '時事', '社會', '港闻', '港聞', '要闻', '要聞',
    // Europe, Caucasus, Central Asia
    'gündem', 'yerel', 'actualitate', 'regióny', 'regija', 'региони', 'македонија', 'aktualitet', 'shqipëri',
    'lietuvoje', 'regionai', 'latvijā', 'reģionos', 'eestis', 'innlent', 'regio', 'náisiúnta',
    'gündəm', 'ölkə', 'аймақ', 'რეგიონები', 'в стране',
  ],
  society: [
    'society', 'gesellschaft', 'sociedad', 'società', 'sociedade', 'społeczeństwo', 'общество', 'toplum',
    'samhälle', 'κοινωνία', 'xã hội', 'مجتمع',
    'суспільство', 'društvo', 'spoločnosť', 'společnost', 'societate',
    // Catalan, Basque
    'societat', 'gizartea',
    // Indic
    'समाज', 'சமூகம்',
    // Persian, Arabic
    'اجتماعی', 'جامعه', 'المجتمع',
    // Africa
    'jamii',
    // South-east Asia
    'สังคม', 'សង្គម', 'ສັງຄົມ',
    // Europe, Caucasus, Central Asia
    'друштво', 'општество', 'shoqëri', 'visuomenė', 'sabiedrība', 'ühiskond', 'yhteiskunta', 'samfund', 'samfunn',
    'samenleving', 'cəmiyyət', 'қоғам', 'jamiyat', 'жамият', 'საზოგადოება', 'հասարակություն',
  ],
  crime: [
    'crime', 'justice', 'courts', 'justiz', 'faits divers', 'justicia', 'sucesos', 'policía', 'polizia',
    'giustizia', 'policja', 'происшествия', 'криминал', 'asayiş', 'polis', 'brott', 'rikos', '事件', '사건사고',
    'حوادث',
    'crna hronika', 'hronika', 'kronika', 'кримінал', 'пригоди', 'krimi', 'eveniment', 'evenimente',
    // Catalan
    'successos',
    // Indic
    'অপরাধ', 'क्राइम', 'अपराध', 'குற்றம்', 'క్రైమ్', 'गुन्हे', 'क्राईम', 'ક્રાઇમ', 'ਅਪਰਾਧ', 'ക്രൈം', 'ಅಪರಾಧ',
    // Urdu, Arabic, Hebrew
    'جرائم', 'الحوادث', 'פלילים',
    // Africa
    'uhalifu',
    // South-east and East Asia
    'krimen', 'kriminal', 'jenayah', 'pháp luật', 'อาชญากรรม', '法治',
    // Europe, Caucasus, Central Asia
    'justiție', 'bűnügy', 'črna kronika', 'crna kronika', 'хроника', 'црна хроника', 'kriminalai', 'kriminālziņas',
    'krim', 'силовые структуры', 'კრიმინალი',
  ],
};

// biome-ignore format: a word list reads better packed than one word a line
export const OTHER_SECTIONS: Readonly<Record<string, readonly string[]>> = {
  culture: [
    'culture', 'arts', 'kultur', 'feuilleton', 'cultura', 'cultuur', 'kultura', 'культура', 'kültür',
    'sanat', 'πολιτισμός', '文化', '문화', 'ثقافة', 'תרבות',
    'cultură', 'kultúra', 'kultūra', 'kultuur',
    // Indic
    'সংস্কৃতি', 'संस्कृति',
    // Urdu, Persian, Arabic
    'ثقافت', 'فرهنگی', 'فرهنگ', 'الثقافة', 'فنون',
    // Africa
    'utamaduni',
    // South-east Asia
    'budaya', 'văn hóa', 'วัฒนธรรม',
    // Europe, Caucasus, Central Asia
    'kulturë', 'kulttuuri', 'menning', 'cultúr', 'mədəniyyət', 'мәдениет', 'madaniyat', 'маданият', 'კულტურა',
    'մշակույթ',
  ],
  science: [
    'science', 'wissen', 'wissenschaft', 'sciences', 'ciencia', 'ciência', 'scienza', 'wetenschap', 'nauka',
    'наука', 'bilim', 'vetenskap', '科学', '科技', '과학', 'علوم',
    // Catalan, Basque
    'ciència', 'zientzia',
    // Indic
    'বিজ্ঞান', 'विज्ञान', 'அறிவியல்', 'సైన్స్',
    // Urdu, Persian, Arabic, Hebrew, Greek
    'سائنس', 'علمی', 'العلوم', 'מדע', 'επιστήμη',
    // Africa
    'sayansi',
    // South-east and East Asia
    'agham', 'khoa học', 'วิทยาศาสตร์', '科學',
    // Europe, Caucasus, Central Asia
    'știință', 'tudomány', 'znanost', 'shkencë', 'mokslas', 'zinātne', 'teadus', 'videnskab', 'vitenskap',
    'vísindi', 'ғылым', 'მეცნიერება', 'գիտություն',
  ],
  technology: [
    'technology', 'tech', 'technik', 'digital', 'tecnología', 'tecnologia', 'technologie', 'technologia',
    'технологии', 'teknoloji', 'teknik', '科技', 'テクノロジー', 'it', 'تكنولوجيا',
    // Basque, Galician
    'teknologia', 'tecnoloxía',
    // Indic
    'প্রযুক্তি', 'टेक', 'तकनीक', 'टेक्नोलॉजी', 'प्रविधि', 'தொழில்நுட்பம்', 'టెక్నాలజీ', 'तंत्रज्ञान', 'ટેકનોલોજી',
    'ਤਕਨਾਲੋਜੀ', 'സാങ്കേതികം', 'ടെക്', 'ತಂತ್ರಜ್ಞಾನ', 'තාක්ෂණ',
    // Urdu, Persian, Arabic, Hebrew, Greek
    'ٹیکنالوجی', 'فناوری', 'التكنولوجيا', 'تقنية', 'טכנולוגיה', 'τεχνολογία',
    // Africa
    'teknolojia', 'ቴክኖሎጂ',
    // South-east Asia
    'teknolohiya', 'teknologi', 'công nghệ', 'เทคโนโลยี', 'បច្ចេកវិទ្យា', 'နည်းပညာ',
    // Europe, Caucasus, Central Asia
    'tehnologie', 'technológie', 'tehnologija', 'технологија', 'teknologji', 'technologijos', 'tehnoloģijas',
    'tehnoloogia', 'tækni', 'texnologiya', 'технология', 'технології', 'ტექნოლოგიები', 'տեխնոլոգիաներ',
  ],
  health: [
    'health', 'gesundheit', 'santé', 'salud', 'saúde', 'salute', 'gezondheid', 'zdrowie', 'здоровье',
    'sağlık', 'hälsa', '健康', '건강', 'صحة',
    // Catalan, Basque
    'salut',
    // Indic
    'স্বাস্থ্য', 'स्वास्थ्य', 'सेहत', 'हेल्थ', 'ஆரோக்கியம்', 'ఆరోగ్యం', 'आरोग्य', 'આરોગ્ય', 'ਸਿਹਤ', 'ആരോഗ്യം',
    'ಆರೋಗ್ಯ', 'සෞඛ්‍ය',
    // Urdu, Persian, Arabic, Hebrew, Greek
    'صحت', 'سلامت', 'الصحة', 'בריאות', 'υγεία',
    // Africa
    'afya', 'ጤና', 'lafiya',
    // South-east Asia
    'kalusugan', 'kesihatan', 'sức khỏe', 'sức khoẻ', 'สุขภาพ', 'សុខភាព', 'ကျန်းမာရေး', 'ສຸຂະພາບ',
    // Europe, Caucasus, Central Asia
    'sănătate', 'egészség', 'zdraví', 'zdravie', 'zdravje', 'zdravlje', 'здравље', 'здраве', 'здравје', 'shëndetësi',
    'sveikata', 'veselība', 'terveys', 'sundhed', 'helse', 'heilsa', 'sláinte', 'iechyd', 'sağlamlıq',
    'денсаулық', "здоров'я", 'здоровʼя', 'здоров’я', 'ჯანმრთელობა', 'առողջություն',
  ],
  entertainment: [
    'entertainment', 'showbiz', 'celebrity', 'unterhaltung', 'people', 'espectáculos', 'entretenimiento',
    'spettacoli', 'entretenimento', 'famosos', 'rozrywka', 'шоу-бизнес', 'magazin', 'eğlence', 'nöje', '娱乐',
    '娛樂', '芸能', '연예', 'فن',
    // Indic
    'বিনোদন', 'मनोरंजन', 'मनोरञ्जन', 'சினிமா', 'సినిమా', 'મનોરંજન', 'ਮਨੋਰੰਜਨ', 'സിനിമ', 'ಸಿನಿಮಾ',
    // Urdu, Hebrew, Greek
    'شوبز', 'בידור', 'ψυχαγωγία',
    // Africa
    'burudani', 'መዝናኛ', 'nishadi',
    // South-east and East Asia
    'libangan', 'hiburan', 'giải trí', 'บันเทิง', 'កម្សាន្ត', 'ဖျော်ဖြေရေး', '文娱', 'エンタメ',
    // Europe
    'monden', 'bulvár', 'viihde',
  ],
  education: [
    'education', 'bildung', 'éducation', 'educación', 'educação', 'scuola', 'onderwijs', 'edukacja',
    'образование', 'eğitim', '教育', '교육',
    // Catalan, Basque
    'educació', 'hezkuntza',
    // Indic
    'শিক্ষা', 'शिक्षा', 'கல்வி', 'విద్య', 'शिक्षण', 'શિક્ષણ', 'ਸਿੱਖਿਆ', 'വിദ്യാഭ്യാസം', 'ಶಿಕ್ಷಣ', 'අධ්‍යාපන',
    // Urdu, Arabic, Hebrew, Greek
    'تعلیم', 'تعليم', 'التعليم', 'חינוך', 'παιδεία',
    // Africa
    'elimu', 'ትምህርት', 'ilimi',
    // South-east Asia
    'edukasyon', 'giáo dục', 'การศึกษา', 'អប់រំ', 'ပညာရေး',
    // Europe, Caucasus, Central Asia
    'educație', 'oktatás', 'školství', 'školstvo', 'izobraževanje', 'obrazovanje', 'образовање', 'švietimas',
    'izglītība', 'haridus', 'koulutus', 'uddannelse', 'utdanning', 'utbildning', 'oideachas', 'addysg', 'təhsil',
    'освіта', 'განათლება', 'կրթություն',
  ],
  weather: [
    'weather', 'wetter', 'météo', 'tiempo', 'meteo', 'tempo', 'weer', 'pogoda', 'погода', 'hava durumu',
    'väder', '天气', '天気', '날씨', 'طقس',
    // Catalan, Basque
    'el temps', 'eguraldia',
    // Indic
    'আবহাওয়া', 'मौसम', 'வானிலை', 'వాతావరణం', 'हवामान', 'കാലാവസ്ഥ',
    // Urdu, Hebrew, Greek
    'موسم', 'מזג האוויר', 'מזג אוויר', 'καιρός',
    // Africa
    'hali ya hewa',
    // South-east and East Asia
    'panahon', 'cuaca', 'thời tiết', 'สภาพอากาศ', 'พยากรณ์อากาศ', '天氣',
    // Europe, Caucasus, Central Asia
    'vremea', 'időjárás', 'počasí', 'počasie', 'времето', 'orai', 'laikapstākļi', 'vejret', 'været', 'veður',
    'ამინდი',
  ],
};

/** Script-free languages: a section word may sit inside a longer anchor ("国际新闻"), not as its own token. */
export const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
/** Thai, Lao, Myanmar and Khmer, written without spaces between words: read like CJK ("ข่าวการเมือง"). */
export const UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;

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
    'projects', 'current projects', 'our team',
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

/**
 * "By Jane Doe", "Von Max Muster", "Par …": a byline's prefix before a capitalised name — not a listing's filter
 * ("By Category", "By Content Type", "By Date" on an archive's or an institution's front; since session 25 also a
 * recipe site's "By Course", "By Ingredient", a shop's "By Brand", "By Price", a vendor's "By Function", a dealer's
 * "By State": 24 non-news pages of the labelled sets and a 2023 company crawl's fronts carried them), and not a shop's
 * door hardware under the Dutch "door" ("Door Knobs", "Door Hangers"): after "door" two names, or the desk or agency
 * a Dutch or Flemish paper signs with ("Door Redactie", "Door ANP").
 */
// biome-ignore format: a word list reads better packed than one word a line
const NOT_A_NAME = [
  'Category', 'Categories', 'Content', 'Type', 'Date', 'Topic', 'Topics', 'Tag', 'Tags', 'Year', 'Month', 'Region',
  'Country', 'Subject', 'Theme', 'Keyword', 'Location', 'Sector', 'Industry', 'Popularity', 'Relevance',
  'Course', 'Courses', 'Dessert', 'Ingredients?', 'Diet', 'Protein', 'Season', 'Holiday', 'Occasion', 'Meal',
  'Cuisine', 'Dish', 'Method', 'Brands?', 'Price', 'State', 'City', 'Level', 'Benefits?', 'Division', 'Specialty',
  'Products?', 'Services?', 'Size', 'Colou?r', 'Style', 'Needs?', 'Use', 'Application', 'Investment', 'Giving',
  'Function', 'App', 'Role', 'Stage', 'Title', 'Publisher', 'Solutions?', 'Department', 'Audience', 'Collection',
  'Material', 'Room', 'Age', 'Interest', 'Format', 'Platform', 'Market', 'Model', 'The Numbers',
].join('|');
const DOOR_HARDWARE =
  'Knobs?|Hangers?|Hardware|Rails?|Hinges?|Latch(?:es)?|Braces?|Sweeps?|Springs?|Locks?|Handles?|Mats?|Stops?|Closers?|Chimes?|Bells?|Frames?|Levers?';
export const BYLINE_TEXT = new RegExp(
  String.raw`^\s*(?:(?:[Bb]y|[Vv]on|[Pp]ar|[Pp]or|[Dd]i|[Aa]v|[Aa]f|[Pp]rzez|[Аа]втор:?|[Yy]azan:?|[Kk]irjoittanut)\s+(?!(?:${NOT_A_NAME})\b)|[Dd]oor\s+(?!(?:${DOOR_HARDWARE})\b)(?=\S+\s+\p{Lu}|(?:Redactie|ANP|Belga)\s*$))\p{Lu}[\p{L}'’.-]+(\s+\p{Lu}[\p{L}'’.-]+){0,3}\s*$`,
  'u',
);
/** Class names of byline and author elements. */
export const BYLINE_CLASS =
  /(^|[\s_-])(byline|by-line|author|autor|auteur|article-author|writer|reporter)([\s_-]|$)/i;
