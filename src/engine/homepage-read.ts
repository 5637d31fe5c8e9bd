// A contract run's one read of its homepage: the feed finder's page (feed-candidates.ts), the declared signals
// (page-signals.ts) and the verdicts' facts (page-facts.ts) from a single tokenisation, each exactly what its own
// function returns. Reading the same page three (with the feed finder's, four) times was most of the main
// thread's time in a contract run.
import { feedPageCollector, type PageInfo } from './feed-candidates.js';
import { type PageFacts, pageFactsCollector } from './page-facts.js';
import { tokenise } from './page-pass.js';
import { type PageSignals, pageSignalsCollector } from './page-signals.js';

export interface HomepageRead {
  /** parsePage(html, pageUrl). */
  page: PageInfo;
  /** readPageSignals(html). */
  signals: PageSignals;
  /** readPageFacts(html, pageUrl). */
  facts: PageFacts;
}

export function readHomepage(html: string, pageUrl: string): HomepageRead {
  const page = feedPageCollector(html, pageUrl);
  const signals = pageSignalsCollector();
  const facts = pageFactsCollector(pageUrl);
  tokenise(html, [page.handler, signals.handler, facts.handler]);
  return { page: page.result(), signals: signals.result(), facts: facts.result() };
}
