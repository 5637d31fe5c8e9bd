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
    'not a url',
    '',
  ])('%s is not an article', (url) => {
    expect(articleUrlShape(url)).toBeNull();
  });
});
