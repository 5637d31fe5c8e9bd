// One htmlparser2 pass over a page, fanned out to several collectors. Tokenising is most of what reading a page
// costs, and a contract run reads its homepage for feeds, declared signals and the verdicts' facts: each concern
// keeps its own collector (feed-candidates.ts, page-signals.ts, page-facts.ts), and they share one tokenisation.
import { type Handler, Parser } from 'htmlparser2';

/** The events a collector listens to; htmlparser2 emits the same stream whoever listens. */
export type PageHandler = Partial<Pick<Handler, 'onopentag' | 'ontext' | 'onclosetag'>>;

/** A reader of one concern: its handler is fed the pass, then `result()`, called once, says what it read. */
export interface PageCollector<T> {
  handler: PageHandler;
  result(): T;
}

/** The options every page reader used on its own: tags and attribute names lower-cased, entities decoded. */
const PARSER_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true } as const;

/** One handler calling each collector's hook in turn, in the order given; a single one is used as it is. */
function fanOut(handlers: readonly PageHandler[]): PageHandler {
  if (handlers.length === 1) return handlers[0]!;
  const opens = handlers.flatMap((h) => (h.onopentag ? [h.onopentag] : []));
  const texts = handlers.flatMap((h) => (h.ontext ? [h.ontext] : []));
  const closes = handlers.flatMap((h) => (h.onclosetag ? [h.onclosetag] : []));
  return {
    onopentag(name, attribs, implied) {
      for (const open of opens) open(name, attribs, implied);
    },
    ontext(text) {
      for (const onText of texts) onText(text);
    },
    onclosetag(name, implied) {
      for (const close of closes) close(name, implied);
    },
  };
}

/** Tokenises `html` once, feeding every handler. Collectors must not change the attributes they are handed. */
export function tokenise(html: string, handlers: readonly PageHandler[]): void {
  const parser = new Parser(fanOut(handlers), PARSER_OPTIONS);
  parser.write(html);
  parser.end();
}
