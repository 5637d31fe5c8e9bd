// Candidates (docs/discovery.md): the sites Seedbed has seen that are not seeds. Citations come from every contract
// run and every discovery harvest; a qualification records what the contract engine found; a person accepts
// (a draft seed, built from the qualification) or rejects (remembered with the reason). Discovery never writes a
// seed by itself: accept does, on a person's word. Owns the candidate tables through its repository.

import type { ImportEntry } from '../../domain/candidate-import.js';
import type {
  AcceptRequest,
  Candidate,
  CandidateState,
  Citation,
  Qualification,
  RejectRequest,
} from '../../domain/candidates.js';
import { importCiter } from '../../domain/candidates.js';
import { classifyHost, domainIdOf } from '../../domain/domains.js';
import { NotFoundError } from '../../domain/errors.js';
import { platformKind } from '../../domain/platform-hosts.js';
import type { CountryGuess, NewsVerdict, SourceLanguage } from '../../domain/seed-facts.js';
import type { Outlink } from '../../engine/source-verdicts.js';
import type { CandidateTable, Database, DbExecutor } from '../../ports/database.js';
import { type Clock, type Page, page, parseJson } from '../common.js';
import type { SeedContractRuns } from '../seed-contract-runs.js';
import type { SeedRepository } from '../seed-repository/index.js';
import type { SeedFacts } from '../seed-repository/rows.js';
import {
  type CandidatePageRequest,
  type CandidateRepository,
  createCandidateRepository,
} from './repository.js';

const DECIDED: ReadonlySet<string> = new Set<CandidateState>(['rejected', 'accepted']);

/** Citations shown with one candidate, and with each one of a list. */
const CITED_BY_DETAIL = 50;

export type CandidateService = ReturnType<typeof createCandidateService>;

/** Who cites: the citing source's id and country, and when. */
export interface Citer {
  id: string;
  country: string;
  at: string;
}

export type AcceptAnswer =
  | { domain: string; result: 'accepted'; seed_id: string }
  | { domain: string; result: 'skipped'; reason: string; seed_id?: string };

export type RejectAnswer = { domain: string; result: 'rejected' | 'skipped'; reason?: string };

export function createCandidateService(deps: {
  database: Database;
  seeds: Pick<SeedRepository, 'registrableDomainsIn' | 'seedIdsOf'>;
  contractRuns: SeedContractRuns;
  clock: Clock;
  repository?: CandidateRepository;
}) {
  const { database, clock } = deps;
  const repository = deps.repository ?? createCandidateRepository(database);
  const now = () => clock().toISOString();

  /**
   * A citing source's links to other sites, in the caller's transaction: each new site becomes a candidate,
   * each known one gains the citation. Seeds, platform hosts and decided candidates are left out. Returns the
   * candidates made.
   */
  async function recordOutlinks(
    executor: DbExecutor,
    citer: Citer,
    outlinks: readonly Outlink[],
  ): Promise<number> {
    const proposable = outlinks.filter((o) => platformKind(o.domain) === null && classifyHost(o.domain).ok);
    const seeded = await deps.seeds.registrableDomainsIn(
      executor,
      proposable.map((o) => o.domain),
    );
    const unseeded = proposable.filter((o) => !seeded.has(o.domain));
    const known = new Map(
      (
        await repository.findMany(
          executor,
          unseeded.map((o) => o.domain),
        )
      ).map((row) => [row.domain, row]),
    );
    const fresh = unseeded.filter((o) => !known.has(o.domain));
    await repository.insertMissing(
      executor,
      fresh.map((o) => newCandidate(o.domain, citer.country, citer.at)),
    );
    // A site not yet qualified is listed under the country of the source that cited it last, so the discovery of
    // the country whose sources are being read qualifies it, whichever country found it first. Read again, locked
    // on PostgreSQL (in domain order), so two sources' moves of one candidate keep its country's totals right.
    const elsewhere = [...known.values()].filter((r) => r.state === 'new' && r.country !== citer.country);
    for (const { domain } of elsewhere.sort((a, b) => (a.domain < b.domain ? -1 : 1))) {
      const row = await repository.find(executor, domain);
      if (row?.state === 'new' && row.country !== citer.country)
        await repository.update(executor, domain, { country: citer.country }, row);
    }
    // A decision is remembered: a rejected or accepted site gathers no more citations.
    const open = unseeded.filter((o) => !DECIDED.has(known.get(o.domain)?.state ?? 'new'));
    await repository.citeAll(
      executor,
      open.map((link) => ({
        domain: link.domain,
        citing: citer.id,
        citing_country: citer.country,
        url: link.url.slice(0, 2048),
        anchor: link.anchor.slice(0, 200),
        found_in: link.found_in,
        seen_at: citer.at,
      })),
    );
    await repository.markRead(executor, citer.id, citer.at, outlinks.length);
    return fresh.length;
  }

  /** What the contract engine found for a candidate; a decided candidate keeps its state. */
  async function recordQualification(
    executor: DbExecutor,
    domain: string,
    found: {
      news: NewsVerdict;
      country_guess: CountryGuess | null;
      languages: SourceLanguage[];
      feeds: number;
      sitemap: { exists: boolean; news: boolean } | null;
      robots_allowed: boolean | null;
      alive: boolean;
      qualification: Qualification | null;
      checked_at: string;
    },
  ): Promise<CandidateState | null> {
    const row = await repository.find(executor, domain);
    if (!row) return null;
    const guess = found.country_guess?.code;
    const columns = {
      state: row.state === 'new' ? 'qualified' : row.state,
      country: guess !== undefined && guess !== 'intl' ? guess : row.country,
      news: JSON.stringify(found.news),
      news_verdict: found.news.verdict,
      score: found.news.score,
      country_guess: found.country_guess ? JSON.stringify(found.country_guess) : null,
      languages: JSON.stringify(found.languages),
      feeds_found: found.feeds,
      sitemap: found.sitemap ? JSON.stringify(found.sitemap) : null,
      robots_allowed: found.robots_allowed === null ? null : found.robots_allowed ? 1 : 0,
      alive: found.alive ? 1 : 0,
      qualification: found.qualification ? JSON.stringify(found.qualification) : null,
      last_checked_at: found.checked_at,
    };
    await repository.update(executor, domain, columns, row);
    return row.state === 'new' ? 'qualified' : (row.state as CandidateState);
  }

  async function list(request: CandidatePageRequest): Promise<Page<Candidate>> {
    const { rows, total, next } = await repository.list(request);
    const answers = await Promise.all(rows.map((row) => withCitations(row, 5)));
    return page(answers, request, total, next);
  }

  async function get(domain: string): Promise<Candidate> {
    const row = (await repository.findMany(database.db, [normalise(domain)]))[0];
    if (!row) throw new NotFoundError(`no candidate ${domain}`);
    return withCitations(row, CITED_BY_DETAIL);
  }

  async function withCitations(row: CandidateTable, limit: number): Promise<Candidate> {
    const cited = await repository.citations(database.db, row.domain, limit);
    return candidateOfRow(
      row,
      cited.map((c) => ({
        seed_id: c.citing,
        url: c.url,
        anchor: c.anchor,
        found_in: c.found_in as Citation['found_in'],
      })),
    );
  }

  /** Draft seeds from qualified candidates, one answer per domain; the citations are kept as `discovered_via`. */
  async function accept(body: AcceptRequest, by: string): Promise<{ results: AcceptAnswer[] }> {
    const results: AcceptAnswer[] = [];
    for (const domain of [...new Set(body.domains.map(normalise))]) {
      results.push(await database.transaction((trx) => acceptOne(trx, domain, body, by)));
    }
    return { results };
  }

  async function acceptOne(
    trx: DbExecutor,
    domain: string,
    body: AcceptRequest,
    by: string,
  ): Promise<AcceptAnswer> {
    const row = await repository.find(trx, domain);
    if (!row) return { domain, result: 'skipped', reason: 'not a candidate' };
    if (row.state === 'accepted') return { domain, result: 'skipped', reason: 'already accepted' };
    const qualification = parseJson<Qualification | null>(row.qualification, null);
    if (qualification === null) {
      const moved = movedReason(row.news);
      const reason =
        moved !== null
          ? `${moved}: accept that site instead`
          : row.alive === 0
            ? 'its qualification found it unreachable: no contract to build a draft from'
            : 'not qualified yet: run a discovery batch (POST /api/v1/queues/discovery) first';
      return { domain, result: 'skipped', reason };
    }
    const host = classifyHost(domain);
    if (!host.ok) return { domain, result: 'skipped', reason: host.reason };
    const country = body.country ?? row.country;
    const domainId = domainIdOf(host.authority, country, domain);
    const cited = await repository.citations(trx, domain, 5);
    const written = await deps.contractRuns.write(trx, {
      domainId,
      category: body.category,
      contract: qualification.contract,
      discovery: qualification.discovery,
      provenance: {
        source: 'discovery',
        discovered_via: cited.map((c) => ({ seed_id: c.citing, url: c.url, found_in: c.found_in })),
        qualified_at: qualification.checked_at,
      },
      facts: qualification.facts as unknown as SeedFacts,
      check: null,
      author: by,
    });
    await repository.update(trx, domain, { state: 'accepted', decided_by: by, decided_at: now() });
    if (written.outcome === 'kept')
      return { domain, result: 'skipped', reason: written.reason, seed_id: written.seed_id };
    return { domain, result: 'accepted', seed_id: written.seed_id };
  }

  async function reject(body: RejectRequest, by: string): Promise<{ results: RejectAnswer[] }> {
    const at = now();
    const results: RejectAnswer[] = [];
    for (const domain of [...new Set(body.domains.map(normalise))]) {
      const answer = await database.transaction(async (trx): Promise<RejectAnswer> => {
        const row = await repository.find(trx, domain);
        if (!row) return { domain, result: 'skipped', reason: 'not a candidate' };
        if (row.state === 'accepted')
          return { domain, result: 'skipped', reason: 'accepted: it is a seed now' };
        await repository.update(trx, domain, {
          state: 'rejected',
          reject_reason: body.reason,
          decided_by: by,
          decided_at: at,
        });
        return { domain, result: 'rejected' };
      });
      results.push(answer);
    }
    return { results };
  }

  /**
   * A person's list, read against the directory: each line answers whether its site is already a seed, already a
   * candidate, or new (then it becomes a candidate, cited by the list). Platform hosts and lines naming no site
   * are answered too; nothing is dropped.
   */
  async function importList(
    entries: readonly ImportEntry[],
    options: { source: string; country: string },
  ): Promise<{ summary: Record<ImportOutcome, number>; results: ImportAnswer[] }> {
    const at = now();
    const named = entries.map((entry) => ({ entry, site: siteOfLine(entry.input) }));
    const domains = named.flatMap((n) => (n.site.ok ? [n.site.domain] : []));
    const seeded = await deps.seeds.seedIdsOf(domains);
    const results: ImportAnswer[] = [];
    await database.transaction(async (trx) => {
      for (const { entry, site } of named) {
        const base = { line: entry.line, input: entry.input };
        if (!site.ok) {
          results.push({ ...base, domain: null, result: 'invalid', reason: site.reason });
          continue;
        }
        const { domain } = site;
        const seedIds = seeded.get(domain);
        if (seedIds) {
          results.push({ ...base, domain, result: 'seed', seed_ids: seedIds });
          continue;
        }
        const platform = platformKind(domain);
        if (platform !== null) {
          results.push({
            ...base,
            domain,
            result: 'platform',
            reason: `a ${platform} host is never a source`,
          });
          continue;
        }
        const label = entry.source ?? options.source;
        const made = await repository.insertIfAbsent(trx, newCandidate(domain, options.country, at));
        const row = await repository.find(trx, domain);
        const sources = new Set(parseJson<string[]>(row?.sources ?? '[]', []));
        if (!sources.has(label))
          await repository.update(trx, domain, { sources: JSON.stringify([...sources, label]) });
        await repository.cite(trx, {
          domain,
          citing: importCiter(label),
          citing_country: options.country,
          url: entry.input.slice(0, 2048),
          anchor: '',
          found_in: 'import',
          seen_at: at,
        });
        results.push(
          made
            ? { ...base, domain, result: 'new' }
            : { ...base, domain, result: 'candidate', state: (row?.state ?? 'new') as CandidateState },
        );
      }
    });
    const summary = { new: 0, candidate: 0, seed: 0, platform: 0, invalid: 0 };
    for (const r of results) summary[r.result] += 1;
    return { summary, results };
  }

  return {
    importList,
    recordOutlinks,
    recordQualification,
    list,
    get,
    accept,
    reject,
    countByState: repository.countByState,
    repository,
  };
}

/** The evidence of a qualification that found the candidate's entry page on another site, or null. */
function movedReason(news: string | null): string | null {
  const verdict = parseJson<NewsVerdict | null>(news, null);
  return verdict?.reasons.find((r) => r.signal === 'moved_to_other_site')?.evidence ?? null;
}

export type ImportOutcome = 'new' | 'candidate' | 'seed' | 'platform' | 'invalid';
export interface ImportAnswer {
  line: number;
  input: string;
  domain: string | null;
  result: ImportOutcome;
  state?: CandidateState;
  seed_ids?: string[];
  reason?: string;
}

/** The registrable domain a line names: a domain, a host or a URL. */
function siteOfLine(input: string): { ok: true; domain: string } | { ok: false; reason: string } {
  let host = input.trim();
  if (host.includes('://')) {
    try {
      host = new URL(host).hostname;
    } catch {
      return { ok: false, reason: 'not a URL' };
    }
  } else host = host.split(/[/?#]/)[0] ?? '';
  if (host === '') return { ok: false, reason: 'names no site' };
  const classified = classifyHost(host.replace(/\.$/, ''));
  return classified.ok
    ? { ok: true, domain: classified.registrableDomain }
    : { ok: false, reason: classified.reason };
}

/** A candidate is named by its registrable domain, lower-cased. */
export function normalise(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}

export function newCandidate(domain: string, country: string, at: string): CandidateTable {
  return {
    domain,
    state: 'new',
    country,
    news: null,
    news_verdict: null,
    score: null,
    country_guess: null,
    languages: '[]',
    citations: 0,
    feeds_found: null,
    sitemap: null,
    robots_allowed: null,
    alive: null,
    qualification: null,
    sources: '[]',
    first_seen_at: at,
    last_checked_at: null,
    reject_reason: null,
    decided_by: null,
    decided_at: null,
  };
}

function candidateOfRow(row: CandidateTable, cited_by: Citation[]): Candidate {
  const flag = (value: number | null) => (value === null ? null : Number(value) === 1);
  return {
    domain: row.domain,
    registrable_domain: row.domain,
    state: row.state as CandidateState,
    country: row.country,
    news: parseJson<NewsVerdict | null>(row.news, null),
    country_guess: parseJson<CountryGuess | null>(row.country_guess, null),
    languages: parseJson<SourceLanguage[]>(row.languages, []),
    citations: Number(row.citations),
    cited_by,
    feeds_found: row.feeds_found === null ? null : Number(row.feeds_found),
    sitemap: parseJson<{ exists: boolean; news: boolean } | null>(row.sitemap, null),
    robots_allowed: flag(row.robots_allowed),
    alive: flag(row.alive),
    sources: parseJson<string[]>(row.sources, []),
    first_seen_at: row.first_seen_at,
    last_checked_at: row.last_checked_at,
    reject_reason: row.reject_reason,
    decided_by: row.decided_by,
    decided_at: row.decided_at,
  };
}
