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
    'https://n.example/images/2024/05/12/photo-of-the-day.jpg',
    'https://n.example/news/2',
    // "item" stays a shop's word: a code, a short name, or a K2-like slug under a shop's segment.
    'https://n.example/item/12345.html',
    'https://n.example/item/123-red-shoes.html',
    'https://n.example/moron/item/27335-6.html',
    'https://n.example/product/item/12345-nike-air-max-ninety-white.html',
    'not a url',
    '',
  ])('%s is not an article', (url) => {
    expect(articleUrlShape(url)).toBeNull();
  });
});
