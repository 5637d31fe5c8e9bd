// Languages ELD has no model for, told by their letters. Kazakh, Macedonian and Mongolian on Lingua's test sentences 501–700
// (test/fixtures/languages/lingua-sentences/SOURCES.md), against the Cyrillic languages ELD does know; the four
// scripts on sentences written for this test (a script is a fact of the text, not a judgement).
import { describe, expect, it } from 'vitest';
import { cjkLanguage, letterLanguage } from '../../../src/engine/script-languages.js';
import { linguaRuns as runs } from '../../support/lingua-sentences.js';

describe('letterLanguage', () => {
  it('reads Kazakh in every run of 20 sentences, and in all but a run of 5 of place-name boilerplate', () => {
    expect(runs('kk', 20).map(letterLanguage)).toEqual(Array(10).fill('kk'));
    const five = runs('kk', 5).map(letterLanguage);
    expect(five.filter((c) => c === 'kk').length).toBeGreaterThanOrEqual(five.length - 1);
    expect(five.filter((c) => c !== 'kk' && c !== null)).toEqual([]);
  });

  it('reads Macedonian in most runs of 20 sentences, and never as anything else', () => {
    const found = runs('mk', 20).map(letterLanguage);
    expect(found.filter((c) => c === 'mk').length).toBeGreaterThanOrEqual(9);
    expect(found.filter((c) => c !== 'mk' && c !== null)).toEqual([]);
  });

  it('reads Mongolian (ө ү, no ң) in runs of 20 sentences, and never as anything else', () => {
    expect(runs('mn', 20).map(letterLanguage)).toEqual(Array(10).fill('mn'));
    const five = runs('mn', 5).map(letterLanguage);
    expect(five.filter((c) => c === 'mn').length).toBeGreaterThanOrEqual(five.length - 1);
    expect(five.filter((c) => c !== 'mn' && c !== null)).toEqual([]);
    // Kyrgyz writes ө ү beside ң: not Mongolian.
    expect(
      letterLanguage(
        'Кыргыз Республикасынын өкмөтү бүгүн жаңы мыйзам долбоорун жактырды, ал эми парламент анын үстүндө иштөөнү улантууда',
      ),
    ).toBeNull();
  });

  it('reads Pashto by the letters it adds to the Arabic script, and Persian, Arabic and Urdu never as it', () => {
    expect(
      letterLanguage(
        'د افغانستان حکومت نن ورځ د نوي بودیجې پلان اعلان کړ او وویل چې دا به د هېواد اقتصاد ته ګټه ورسوي.',
      ),
    ).toBe('ps');
    // Uyghur writes ې beside ۆ ۈ ۋ: not Pashto.
    expect(
      letterLanguage('ئۇيغۇر تىلى تۈركىي تىللار ئائىلىسىگە مەنسۇپ بولۇپ، ئۇ ئۆزگىچە يېزىقى بىلەن يېزىلىدۇ'),
    ).toBeNull();
  });

  it.each([
    'ru',
    'uk',
    'bg',
    'sr',
    'be',
    'ar',
    'fa',
    'ur',
    'en',
    'af',
    'zu',
  ])('claims no run of %s', (code) => {
    for (const size of [20, 5]) expect(runs(code, size).map(letterLanguage).filter(Boolean)).toEqual([]);
  });

  it('knows Sinhala, Khmer, Burmese and Dhivehi by their scripts, with a few Latin words among them', () => {
    expect(letterLanguage('ශ්‍රී ලංකා ජනාධිපතිවරයා අද පාර්ලිමේන්තුවේදී නව අයවැය ඉදිරිපත් කළේය. Colombo, AFP')).toBe('si');
    expect(letterLanguage('រដ្ឋាភិបាលកម្ពុជាបានប្រកាសផែនការថ្មីសម្រាប់ការអភិវឌ្ឍន៍សេដ្ឋកិច្ចនៅថ្ងៃនេះ Phnom Penh')).toBe(
      'km',
    );
    expect(letterLanguage('မြန်မာနိုင်ငံ အစိုးရသည် ယနေ့ စီးပွားရေး ဖွံ့ဖြိုးတိုးတက်မှုအတွက် အစီအစဉ်သစ်ကို ကြေညာခဲ့သည်')).toBe('my');
    expect(letterLanguage('ދިވެހި ސަރުކާރުން މިއަދު އިޤްތިޞާދީ ތަރައްޤީއަށް އައު ރޭވުމެއް އިޢުލާން ކޮށްފި')).toBe('dv');
  });

  it('reads nothing into a short text or one mostly in another script', () => {
    expect(letterLanguage('ශ්‍රී ලංකා')).toBeNull();
    expect(
      letterLanguage(
        'Sri Lanka’s president presented a new budget to parliament today, the first since the crisis (ශ්‍රී ලංකා).',
      ),
    ).toBeNull();
    expect(letterLanguage('')).toBeNull();
  });
});

describe('cjkLanguage', () => {
  // Lingua's test sentences (zh and ko 501–700, ja 201–400: its Japanese file has 412; SOURCES.md).
  it.each([
    'zh',
    'ja',
    'ko',
  ] as const)('reads %s in every run of 20 and of 5 sentences, and one alone never as another', (code) => {
    expect(runs(code, 20).map(cjkLanguage)).toEqual(Array(10).fill(code));
    expect(runs(code, 5).map(cjkLanguage)).toEqual(Array(40).fill(code));
    expect(
      runs(code, 1)
        .map(cjkLanguage)
        .filter((c) => c !== code && c !== null),
    ).toEqual([]);
  });

  it.each(['ru', 'uk', 'ar', 'fa', 'hi', 'en', 'de'])('claims no run of %s', (code) => {
    expect(runs(code, 5).map(cjkLanguage).filter(Boolean)).toEqual([]);
  });

  it('leaves text between the kana shares, or mostly in another script, unread', () => {
    // Chinese with a stray の in a brand name is still Chinese; a Japanese name in an English sentence is nothing.
    expect(
      cjkLanguage(
        '台湾の味道，鵝肉鬆原味罐装，下营农会出品，全台湾网络开店平台第一名，欢迎选购各种农特产品和美食礼盒',
      ),
    ).toBe('zh');
    expect(
      cjkLanguage(
        'The Prime Minister met 岸田文雄 in Tokyo on Tuesday to discuss trade and security policy.',
      ),
    ).toBeNull();
    expect(cjkLanguage('')).toBeNull();
  });
});
