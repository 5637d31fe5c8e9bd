import { describe, expect, it } from 'vitest';
import type { PageLink } from '../../../src/engine/page-facts.js';
import { readSiteMenus } from '../../../src/engine/site-menus.js';

const sportsDesks = (links: PageLink[]) => readSiteMenus(links).sports;
const newsroomGenres = (links: PageLink[]) => readSiteMenus(links).genres;
const recipeMenu = (links: PageLink[]) => readSiteMenus(links).recipe;
const aboutMeLink = (links: PageLink[]) => readSiteMenus(links).aboutMe;
const newspaperFeatures = (links: PageLink[]) => readSiteMenus(links).features;
const shopMenu = (links: PageLink[]) => readSiteMenus(links).shop;

const own = (...anchors: string[]): PageLink[] =>
  anchors.map((anchor, i) => ({ url: `https://site.example/m${i}`, anchor, internal: true }));

describe('the menus of kinds of site', () => {
  it("reads a sports desk's sports and leagues, each alone or with one word beside it", () => {
    // sportinglife.bg (the eleventh set): national and world football, volleyball, tennis, Formula 1.
    expect(sportsDesks(own('БЪЛГАРСКИ ФУТБОЛ', 'Волейбол', 'Тенис', 'Формула 1'))).toEqual([
      'футбол',
      'волейбол',
      'тенис',
      'формула 1',
    ]);
    expect(sportsDesks(own('College football', "Women's basketball", 'NHL'))).toEqual([
      'football',
      'basketball',
      'nhl',
    ]);
    // Two sports are not a desk's menu; a sport inside a longer name is not a desk.
    expect(sportsDesks(own('Football', 'Tennis'))).toBeNull();
    expect(sportsDesks(own('Football', 'Tennis', 'Golf course management'))).toBeNull();
    // Another site's links are not its menu.
    const elsewhere = own('Football', 'Tennis', 'Golf').map((l) => ({ ...l, internal: false }));
    expect(sportsDesks(elsewhere)).toBeNull();
  });

  it("reads a newsroom's menu of journalism's kinds: three of them, not a site's lone News", () => {
    // karelinform.ru (the tenth set) and stereogum.com (the thirteenth).
    expect(newsroomGenres(own('Новости', 'Аналитика', 'Интервью', 'Мнение'))).toEqual([
      'новости',
      'аналитика',
      'интервью',
    ]);
    expect(newsroomGenres(own('News', 'New Music', 'Columns', 'Interviews', 'Reviews'))).toEqual([
      'news',
      'columns',
      'interviews',
    ]);
    expect(newsroomGenres(own('News', 'Interviews', 'Shop'))).toBeNull();
  });

  it("reads a newspaper's reader features by family: two families, not a puzzle site's puzzles", () => {
    // bild.de (the sixth set): Horoskop and Kreuzworträtsel; a US metro's obituaries, comics and lottery.
    expect(newspaperFeatures(own('Horoskop', 'Kreuzworträtsel'))).toEqual(['horoskop', 'kreuzworträtsel']);
    expect(newspaperFeatures(own('Obituaries', 'Obits', 'Comics', 'Lottery'))).toEqual([
      'obituaries',
      'comics',
      'lottery',
    ]);
    expect(newspaperFeatures(own('Crosswords', 'Puzzles', 'Sudoku', 'Mots fléchés'))).toBeNull();
  });

  it("reads a shop's menu about buying: two of its items, not one", () => {
    expect(shopMenu(own('New arrivals', 'Sale', 'Gift cards'))).toEqual([
      'new arrivals',
      'sale',
      'gift cards',
    ]);
    expect(shopMenu(own('Nowości', 'Wyprzedaż'))).toEqual(['nowości', 'wyprzedaż']);
    expect(shopMenu(own('Sale', 'Subscribe', 'Newsletters'))).toBeNull();
    // 123print.com (the eighteenth set): the catalogue's parts and a customer's orders; a paper's one "Shop" is not.
    expect(shopMenu(own('ALL PRODUCTS', 'Shop All Office', 'Shop All Marketing', 'Shop'))).toEqual([
      'all products',
      'shop all office',
      'shop all marketing',
    ]);
    expect(shopMenu(own('Re-Order', 'All Orders'))).toEqual(['re-order', 'all orders']);
    expect(shopMenu(own('Shop', 'Shopping', 'Shop all'))).toBeNull();
  });

  it("counts a catalogue's product pages by URL, distinct and its own, fifteen or more", () => {
    const products = (n: number, path = 'product', internal = true): PageLink[] =>
      Array.from({ length: n }, (_, i) => ({
        url: `https://shop.example/${path}/${1000 + i}/card-${i}.aspx`,
        anchor: '',
        internal,
      }));
    expect(readSiteMenus(products(15)).products).toHaveLength(15);
    expect(readSiteMenus(products(15, 'de/produkte')).products).toHaveLength(15);
    expect(readSiteMenus(products(14)).products).toBeNull();
    expect(readSiteMenus([...products(10), ...products(10)]).products).toBeNull();
    expect(readSiteMenus(products(20, 'product', false)).products).toBeNull();
    // A section named for products (/products/) is no product page; nor is a story whose slug says "product".
    expect(readSiteMenus(products(20, 'news/product-launch')).products).toBeNull();
  });

  it("reads the industries a vendor sells to as a company's menu", () => {
    // juniper.net (the eighteenth set); a business paper's desks Banking, Retail, Healthcare are no such menu.
    expect(
      readSiteMenus(own('Service Provider', 'Energy & Utilities', 'Media & Entertainment')).company,
    ).toEqual(['service provider', 'energy & utilities', 'media & entertainment']);
    expect(readSiteMenus(own('Banking', 'Retail', 'Healthcare', 'Insurance')).company).toBeNull();
  });

  it('reads "X recipes" and "Recetas de X" as the course X, whole anchors only', () => {
    expect(
      recipeMenu(own('Chicken recipes', 'Recetas de postres', 'Soups', 'Salads', 'Baking', 'Vegan')),
    ).toEqual(['chicken', 'postres', 'soups', 'salads', 'baking', 'vegan']);
    expect(recipeMenu(own('Chicken recipes', 'Soups', 'Salads', 'Baking', 'Vegan', 'Cookies'))).toBeNull();
    // Case, runs of spaces, and punctuation, symbols or emoji at either end are not the item's words.
    expect(
      recipeMenu(own('🥗 Salads', '» SOUPS', 'Baking…', ' Side\n  dishes ', '#Vegan', 'Desserts 🍰')),
    ).toEqual(['salads', 'soups', 'baking', 'side dishes', 'vegan', 'desserts']);
    expect(
      recipeMenu(own('Soups for the soul of the city', 'Salads', 'Baking', 'Vegan', 'Desserts')),
    ).toBeNull();
    // A recipe index's ways in, each one of the menu's (seriouseats.com, session 25); a paper's lone "Recipes" is not.
    const index = own(
      'Recipes by Course',
      'Recipes by Ingredient',
      'Recipes by Cuisine',
      'Recipes by Method',
      'Recipes by Diet',
      'Recettes par occasion',
    );
    expect(recipeMenu(index)).toHaveLength(6);
    expect(recipeMenu(own('Recipes', 'Politics', 'Sport', 'Business', 'World', 'Opinion'))).toBeNull();
  });

  it('finds an "About me" link among its own, not another site\'s', () => {
    expect(aboutMeLink(own('Home', 'Über mich'))?.anchor).toBe('Über mich');
    expect(aboutMeLink(own('Home', 'About us', 'Meet the team'))).toBeNull();
    expect(
      aboutMeLink([{ url: 'https://other.example/about', anchor: 'About me', internal: false }]),
    ).toBeNull();
  });
});
