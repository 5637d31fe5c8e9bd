import { describe, expect, it } from 'vitest';
import { articleUrlShape } from '../../../src/engine/article-urls.js';

describe('articleUrlShape', () => {
  it.each([
    ['https://n.example/2024/05/12/council-votes-budget', 'dated'],
    ['https://n.example/politik/2024-05-12/wahl', 'dated'],
    ['https://n.example/news/world-europe-68912345', 'numeric_id'],
    ['https://n.example/article.php?id=123456', 'numeric_id'],
    // WordPress's plain permalinks sit on the root: the query's id alone names the story.
    ['https://n.example/?p=128314', 'numeric_id'],
    ['https://n.example/?lang=bn&p=128314', 'numeric_id'],
    ['https://n.example/politics/mayor-announces-new-plan-for-city-transport', 'long_slug'],
    ['https://n.example/sport/fussball/bayern-gewinnt-derby.html', 'html_under_section'],
    // Joomla's K2: /<section>/item/<id>-<slug>.html (lavozdemoron.es, the eleventh set), non-ASCII slug as written.
    ['https://n.example/moron/item/27321-ama-morón-presenta-una-moción-sobre-la-sierra.html', 'numeric_id'],
    // A script named for showing one story, with a number of four or more digits under whatever name the CMS gives it
    // (entermedia.co.kr and world.kbs.co.kr in the sets), and the Korean newsrooms' common CMS's idxno.
    ['https://n.example/news/news_view.html?idx=8576&page=1&bc=03', 'numeric_id'],
    ['https://n.example/service/news_view.htm?lang=e&Seq_Code=181595', 'numeric_id'],
    ['https://n.example/news/articleView.html?idxno=123456', 'numeric_id'],
    ['https://n.example/economy/newsDetail.aspx?no=20231107', 'numeric_id'],
    ['https://n.example/article.html?article_id=2019022201', 'numeric_id'],
    // A query value that is a date and a serial number, under any name (asiatoday.co.kr in the fifteenth set).
    ['https://n.example/view.php?key=20180315010008773', 'numeric_id'],
    ['https://n.example/view.php?key=20180315010008773&ref=main_top', 'numeric_id'],
    // A Greek local site's news script (eordaialive.com, the ninth set): the story's number as "newid".
    ['https://n.example/live/news.php?lang=173&newid=5178&cat=153', 'numeric_id'],
    ['https://n.example/templates/story/story.php?storyId=1001', 'numeric_id'],
  ])('%s is %s', (url, shape) => {
    expect(articleUrlShape(url)).toBe(shape);
  });

  it.each([
    'https://n.example/',
    'https://n.example/?cat=11',
    'https://n.example/?p=12',
    'https://n.example/?page_id=123456',
    'https://n.example/politics/',
    'https://n.example/2024/05/',
    'https://n.example/tag/some-very-long-tag-name-with-words',
    'https://n.example/product/blue-cotton-shirt-size-medium-long',
    // A shop's catalogue pages (tractorsupply.com's /tsc/catalog/…, session 25).
    'https://n.example/tsc/catalog/ag-sprayer-tips-boom-supplies',
    'https://n.example/katalog/gartenmoebel-aus-holz-und-metall-fuer-draussen',
    'https://n.example/images/2024/05/12/photo-of-the-day.jpg',
    'https://n.example/news/2',
    // "item" stays a shop's word: a code, a short name, or a K2-like slug under a shop's segment.
    'https://n.example/item/12345.html',
    'https://n.example/item/123-red-shoes.html',
    'https://n.example/moron/item/27335-6.html',
    'https://n.example/product/item/12345-nike-air-max-ninety-white.html',
    // A viewer script that names no story (a shop's goods, a forum's topic), or a number under four digits (a page).
    'https://n.example/shop/goods_view.php?goodsNo=1000012345',
    'https://n.example/viewtopic.php?t=123456',
    'https://n.example/news/news_view.html?page=2',
    // A number in sequence, or a date with no serial after it, or no date at all, under a generic script.
    'https://n.example/view.php?key=123456789012',
    'https://n.example/view.php?date=20180315',
    'https://n.example/view.php?key=20181345010008773',
    'not a url',
    '',
  ])('%s is not an article', (url) => {
    expect(articleUrlShape(url)).toBeNull();
  });
});
