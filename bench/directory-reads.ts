// The directory bench's reads: each list the API and the review page offer, timed at page 1 and at a deep
// position, against the same statements replayed on the raw database in the same run. A deep position is opened
// by `offset` (untimed), then followed as its reader would: the API's `pagination.next`, the review page's own Next
// link (the href it renders, as a person clicks it); by `offset` only where the list gives no cursor. The raw side
// reads the same pages the same way: the list's statements for the same cursor (or offset), recorded from the
// repository and replayed on the bare driver.
import { parseCandidateFilter } from '../src/http/routes/ui/candidate-filter-form.js';
import { parseSeedFilter } from '../src/http/routes/ui/seed-filter-form.js';
import type { CandidateFilter } from '../src/services/candidates/repository.js';
import type { RawDatabase, Statement } from './directory-backend.js';

export type ListKind = 'seeds' | 'candidates' | 'ui-seeds' | 'ui-candidates';

export interface ReadCase {
  kind: ListKind;
  query: Record<string, string>;
  /** Held to the issue's target (list and filter p99 ≤ 50 ms at any depth). */
  target: boolean;
}

export interface Timing {
  name: string;
  service: number[];
  raw: number[];
  /** How the deep pages were followed, and from where; empty for page 1. */
  paging: string;
  target: boolean;
  /** The raw statements of one sample, for EXPLAIN when the target is missed. */
  statements: Statement[];
}

const API_LIMIT = 50;
/** The review page shows 25 a page (seed-list.ts, candidate-list.ts). */
const UI_LIMIT = 25;
/** How deep a deep page is at most: 20,000 pages in. */
const DEEP_PAGES = 20_000;

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/**
 * A read slower than the target by far is sampled less: after MIN_SAMPLES, no more once its samples add up to
 * CASE_BUDGET_MS, so a run at a million stays within its hour (the table says how many samples each read had).
 */
const MIN_SAMPLES = 3;
const CASE_BUDGET_MS = 10_000;
const spent = (ms: readonly number[]) =>
  ms.length >= MIN_SAMPLES && ms.reduce((a, b) => a + b, 0) > CASE_BUDGET_MS;

const elapsedMs = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** GET the path; answers the milliseconds to the last byte and the body. */
export async function timedGet(base: string, path: string): Promise<{ ms: number; body: string }> {
  let started = process.hrtime.bigint();
  const get = () => fetch(new URL(path, base));
  // A kept-alive connection idle while the raw side ran a slow read may be closed by the server just as this
  // request goes out on it: sent again once on a fresh connection, timed from there.
  const response = await get().catch((error: Error & { cause?: { code?: string } }) => {
    if (error.cause?.code !== 'UND_ERR_SOCKET') throw error;
    started = process.hrtime.bigint();
    return get();
  });
  const body = await response.text();
  const ms = elapsedMs(started);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 500)}`);
  return { ms, body };
}

export async function timedReplay(raw: RawDatabase, statements: readonly Statement[]): Promise<number> {
  const started = process.hrtime.bigint();
  await raw.replay(statements);
  return elapsedMs(started);
}

function pathOf(
  kind: ListKind,
  query: Record<string, string>,
  position: { offset?: number; cursor?: string },
) {
  const params = new URLSearchParams(query);
  if (kind === 'seeds' || kind === 'candidates') params.set('limit', String(API_LIMIT));
  if (position.cursor !== undefined) params.set('cursor', position.cursor);
  else if (position.offset) params.set('offset', String(position.offset));
  const base = {
    seeds: '/api/v1/seeds',
    candidates: '/api/v1/candidates',
    'ui-seeds': '/ui/seeds',
    'ui-candidates': '/ui/candidates',
  }[kind];
  return `${base}?${params}`;
}

export const caseName = (c: ReadCase) =>
  `${c.kind === 'seeds' || c.kind === 'candidates' ? `GET /api/v1/${c.kind}` : `GET /ui/${c.kind.slice(3)}`}` +
  `${Object.keys(c.query).length > 0 ? `?${new URLSearchParams(c.query)}` : ''}`;

/** Where a page starts: a cursor the list gave out, or an offset. */
type Position = { cursor: string } | { offset: number };

/**
 * What the service's list sends for this page, recorded on the raw side: the repository's list with the same
 * filter, limit and cursor or offset (and, for candidates, the citations the service shows with each).
 */
async function listStatements(raw: RawDatabase, c: ReadCase, position: Position): Promise<Statement[]> {
  const limit = c.kind === 'ui-seeds' || c.kind === 'ui-candidates' ? UI_LIMIT : API_LIMIT;
  const page = 'cursor' in position ? { offset: 0, cursor: position.cursor } : { offset: position.offset };
  if (c.kind === 'seeds' || c.kind === 'ui-seeds') {
    const filter = c.kind === 'ui-seeds' ? stripPage(parseSeedFilter(c.query)) : (c.query as never);
    return raw.record(() => raw.seeds.list({ ...filter, limit, ...page }));
  }
  const filter: CandidateFilter =
    c.kind === 'ui-candidates' ? stripPage(parseCandidateFilter(c.query)) : (c.query as CandidateFilter);
  return raw.record(async () => {
    const { rows } = await raw.candidates.list({ ...filter, limit, ...page });
    // The service shows each candidate with its first five citers (candidates/index.ts, list).
    for (const row of rows) await raw.candidates.citations(raw.db, row.domain, 5);
  });
}

function stripPage<T extends { offset?: number; cursor?: string | undefined }>(
  filter: T,
): Omit<T, 'offset' | 'cursor'> {
  const { offset: _offset, cursor: _cursor, ...rest } = filter;
  return rest;
}

interface Answer {
  data?: Array<Record<string, string>>;
  pagination?: { total: number; next?: string | null };
}

/** The page after this one: its cursor, and the path that reads it. */
interface NextPage {
  cursor: string;
  path: string;
}

/**
 * The page after this one: by the API's `pagination.next`; on the review page, by the href its Next link renders
 * (seed-list.ts, candidate-list.ts), followed as it is, as a person clicks it.
 */
function nextPage(c: ReadCase, body: string): NextPage | undefined {
  if (c.kind === 'seeds' || c.kind === 'candidates') {
    const cursor = (JSON.parse(body) as Answer).pagination?.next ?? undefined;
    return cursor === undefined ? undefined : { cursor, path: pathOf(c.kind, c.query, { cursor }) };
  }
  const href = /<a href="([^"]*)" rel="next">/.exec(body)?.[1]?.replaceAll('&amp;', '&');
  const cursor = href === undefined ? null : new URL(href, 'http://page').searchParams.get('cursor');
  return href === undefined || cursor === null ? undefined : { cursor, path: href };
}

/** The total a page says (the HTML page says it in its caption; the API in pagination). */
function totalOf(kind: ListKind, body: string): number {
  if (kind === 'seeds' || kind === 'candidates') return (JSON.parse(body) as Answer).pagination?.total ?? 0;
  const caption = /<caption>(\d+)/.exec(body) ?? /(\d+) candidates?/.exec(body);
  return Number(caption?.[1] ?? 0);
}

/** Page 1 and a deep page of one list, `samples` of each, service and raw side taking turns. */
export async function timeList(
  base: string,
  raw: RawDatabase,
  c: ReadCase,
  samples: number,
): Promise<Timing[]> {
  const name = caseName(c);
  const isUi = c.kind === 'ui-seeds' || c.kind === 'ui-candidates';
  const limit = isUi ? UI_LIMIT : API_LIMIT;
  // Page 1: the same request again and again (one warm-up each side).
  const firstStatements = await listStatements(raw, c, { offset: 0 });
  const warm = await timedGet(base, pathOf(c.kind, c.query, {}));
  const total = totalOf(c.kind, warm.body);
  const first: Timing = {
    name: `${name} (page 1)`,
    service: [],
    raw: [],
    paging: `${total.toLocaleString('en-US')} match`,
    target: c.target,
    statements: firstStatements,
  };
  for (let i = 0; i < samples && !spent(first.service); i++) {
    first.service.push((await timedGet(base, pathOf(c.kind, c.query, {}))).ms);
    first.raw.push(await timedReplay(raw, firstStatements));
  }
  // 90 % of the way in (at most 20,000 pages), leaving room for the pages timed after it.
  const deepOffset = Math.min(
    Math.floor((total * 0.9) / limit) * limit,
    Math.floor((total - (samples + 1) * limit) / limit) * limit,
    DEEP_PAGES * limit,
  );
  if (deepOffset < limit * 2) return [first];

  // Deep: the page at the deep offset opens the way (untimed); then `samples` pages in a row from there, each by the
  // cursor the page before gave (its Next link on the review page), by offset where a list gives none.
  const opening = await timedGet(base, pathOf(c.kind, c.query, { offset: deepOffset }));
  let next = nextPage(c, opening.body);
  const byCursor = next !== undefined;
  const deep: Timing = {
    name: `${name} (page ${(deepOffset / limit + 1).toLocaleString('en-US')}+)`,
    service: [],
    raw: [],
    paging: `${byCursor ? (isUi ? 'Next link' : 'cursor') : 'offset'} from ${deepOffset.toLocaleString('en-US')}`,
    target: c.target,
    statements: [],
  };
  const positions: Position[] = [];
  for (let k = 1; k <= samples && !spent(deep.service); k++) {
    const offset = deepOffset + k * limit;
    if (offset >= total) break;
    if (byCursor && next === undefined) break;
    const got = await timedGet(base, next?.path ?? pathOf(c.kind, c.query, { offset }));
    deep.service.push(got.ms);
    positions.push(next !== undefined ? { cursor: next.cursor } : { offset });
    if (byCursor) next = nextPage(c, got.body);
  }
  for (const position of positions) {
    const statements = await listStatements(raw, c, position);
    deep.statements = statements;
    deep.raw.push(await timedReplay(raw, statements));
  }
  return [first, deep];
}
