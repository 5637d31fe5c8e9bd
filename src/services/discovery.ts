// Discovery batches (docs/discovery.md): a batch of type `discovery` on DISCOVERY_QUEUE. It starts with one item per
// seed of the country (harvest: read its links to other sites), then qualifies the candidates found through the
// contract engine, most cited first (round 1). With more rounds, the links of the candidates a round judged news
// are read too, and the candidates only they cite are qualified in the next round. Each round is added to the
// running batch by whichever chunk finds the step before it finished, once (discovery_steps).
import type { BatchView, ItemResult } from '../domain/batches.js';
import {
  type CandidateState,
  candidateCiter,
  type DiscoveryItem,
  type DiscoveryRequest,
  type Qualification,
} from '../domain/candidates.js';
import { classifyHost, domainIdOf, registrableDomainOf } from '../domain/domains.js';
import { UnprocessableError } from '../domain/errors.js';
import { discoveryOf } from '../domain/seed-facts.js';
import type { ContractDiscovery } from '../engine/contract-discovery.js';
import { movedVerdict } from '../engine/news-verdict.js';
import { harvestLinks } from '../engine/source-verdicts.js';
import type { Database, DbTransaction } from '../ports/database.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { BatchService } from './batches.js';
import type { CandidateService } from './candidates/index.js';
import type { ChunkLedger } from './chunk-ledger.js';
import type { Clock } from './common.js';
import type { ContractService } from './contracts.js';
import { type FetchScope, scopedFetcher } from './fetch-scope.js';
import { contractOf, factsOf } from './seed-contract-runs.js';
import type { SeedRepository } from './seed-repository/index.js';

/** A seed's links read within this many days (by a contract run or a discovery) are not read again. */
export const HARVEST_FRESH_DAYS = 7;
/** Seeds per chunk of a discovery batch's harvest. */
export const HARVEST_CHUNK_SIZE = 20;
/**
 * Candidates per chunk of a qualification round. Each is committed on its own as it is answered, so a chunk is
 * only the unit of claiming and retrying; larger chunks mean fewer claims and completions (each a durable write
 * on SQLite, taken in turn before the round's candidates reach the domain pool: 50 of them for 1,000 candidates
 * at 20 a chunk kept the first candidates waiting about half a second).
 */
export const QUALIFY_CHUNK_SIZE = 100;
/** Batches whose parameters a process keeps at hand (a few run at once). */
const MADE_KEPT = 64;

/** The discovery's parameters, kept in the batch's summary so every chunk's step sees them. */
interface Parameters {
  rounds: number;
  max_candidates: number;
  min_citations: number;
  force: boolean;
}

/** What one item found, to be recorded in its own transaction (the worker's commit). */
export type DiscoveryFinding = (trx: DbTransaction) => Promise<Omit<ItemResult, 'index' | 'input'>>;

export type DiscoveryService = ReturnType<typeof createDiscoveryService>;

export function createDiscoveryService(deps: {
  database: Database;
  batches: Pick<BatchService, 'create' | 'get'>;
  ledger: Pick<ChunkLedger, 'addChunks' | 'allAnswered'>;
  seeds: Pick<SeedRepository, 'citingSeeds'>;
  candidates: CandidateService;
  contracts: Pick<ContractService, 'discover'>;
  fetcher: Fetcher;
  clock: Clock;
}) {
  const { candidates, clock } = deps;
  const repository = candidates.repository;
  const now = () => clock().toISOString();

  async function create(
    request: DiscoveryRequest,
    idempotencyKey: string | null,
  ): Promise<{ batch: BatchView; created: boolean }> {
    const parameters: Parameters = {
      rounds: request.rounds,
      max_candidates: request.max_candidates,
      min_citations: request.min_citations,
      force: request.force,
    };
    const seeds = await deps.seeds.citingSeeds(request.country, request.category);
    let items: DiscoveryItem[] = seeds.map((seed) => ({
      kind: 'harvest',
      seed_id: seed.seed_id,
      entry_url: seed.entry_url ?? `https://${seed.registrable_domain}/`,
      registrable_domain: seed.registrable_domain,
      country: seed.country,
    }));
    // No seed to read links from: the candidates already known (imported, or found before) are qualified.
    const direct = items.length === 0;
    if (direct) items = await qualifyItems(request.country, parameters, 1);
    if (items.length === 0) {
      throw new UnprocessableError(
        `nothing to discover from in ${request.country}: no draft or active seed of ${request.category}, and no candidate to qualify`,
        'nothing_to_discover',
        { country: request.country, category: request.category },
      );
    }
    const { batch, created } = await deps.batches.create({
      type: 'discovery',
      queue: 'DISCOVERY_QUEUE',
      country: request.country,
      category: request.category,
      items,
      chunkSize: direct ? QUALIFY_CHUNK_SIZE : HARVEST_CHUNK_SIZE,
      summary: { parameters },
      idempotencyKey,
      request,
    });
    if (direct && created) {
      await repository.claimStep(deps.database.db, {
        batchId: batch.batchId,
        step: 'qualify:1',
        items: items.length,
        at: now(),
      });
    }
    return { batch, created };
  }

  /** The candidates a round qualifies: round 1 the most cited; later rounds those cited by qualified news ones. */
  async function qualifyItems(
    country: string,
    parameters: Parameters,
    round: number,
  ): Promise<DiscoveryItem[]> {
    const states: CandidateState[] = parameters.force ? ['new', 'qualified', 'rejected'] : ['new'];
    const domains = await repository.toQualify({
      country,
      states,
      minCitations: round === 1 ? parameters.min_citations : 1,
      limit: parameters.max_candidates,
      ...(round > 1 ? { citedByCandidates: true } : {}),
    });
    return domains.map((domain) => ({ kind: 'qualify', domain, country, round }));
  }

  /** Reads a seed's links (outside any transaction); what to record follows. */
  async function harvest(
    item: Extract<DiscoveryItem, { kind: 'harvest' }>,
    force: boolean,
    scope?: FetchScope,
  ): Promise<DiscoveryFinding> {
    const read = await repository.lastRead(deps.database.db, item.seed_id);
    const freshSince = clock().getTime() - HARVEST_FRESH_DAYS * 86_400_000;
    if (!force && read !== null && Date.parse(read) >= freshSince) {
      return async () => ({ status: 'skipped', outcome: 'read_recently', reason: `links read at ${read}` });
    }
    const network = scope ? scopedFetcher(deps.fetcher, scope) : deps.fetcher;
    const found = await harvestLinks(network, {
      entryUrl: item.entry_url,
      registrableDomain: item.registrable_domain,
    });
    scope?.signal.throwIfAborted();
    return async (trx) => {
      const citer = { id: item.seed_id, country: item.country, at: now() };
      const made = await candidates.recordOutlinks(trx, citer, found.outlinks);
      const result = { links: found.outlinks.length, new_candidates: made };
      if (found.reason !== null)
        return { status: 'skipped', outcome: 'unread', reason: found.reason, result };
      return { status: 'succeeded', outcome: 'harvested', result };
    };
  }

  /**
   * The countries citing each candidate, with how many cite it from each: read for a chunk's candidates at once
   * (one statement instead of one per candidate, each waiting its turn on the database behind the chunk claims).
   */
  function citingCountries(domains: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return repository.citingCountries(domains);
  }

  /**
   * Runs a candidate through the contract engine (outside any transaction); what to record follows. `citing`:
   * the countries of its citers (citingCountries).
   */
  async function qualify(
    item: Extract<DiscoveryItem, { kind: 'qualify' }>,
    context: { category: string; rounds: number; citing: Record<string, number> },
    scope?: FetchScope,
  ): Promise<DiscoveryFinding> {
    const host = classifyHost(item.domain);
    if (!host.ok) return async () => ({ status: 'failed', outcome: 'invalid', reason: host.reason });
    const citing = context.citing;
    const found = await deps.contracts.discover(
      {
        domainId: domainIdOf(host.authority, item.country, host.registrableDomain),
        registrableDomain: host.registrableDomain,
        country: item.country,
        category: context.category,
        citing,
      },
      scope,
    );
    const movedTo = otherSiteOf(host.registrableDomain, found.liveness.final_url);
    return async (trx) => {
      const news =
        movedTo === null
          ? (found.metadata.news ?? unreachable(found))
          : movedVerdict(host.registrableDomain, found.liveness.final_url as string, movedTo);
      const state = await candidates.recordQualification(trx, item.domain, {
        news,
        country_guess: found.metadata.country_guess,
        languages: found.metadata.languages,
        feeds: found.metadata.feeds.length,
        sitemap: found.draft
          ? { exists: found.metadata.sitemap.exists, news: found.metadata.sitemap.news }
          : null,
        robots_allowed: found.draft ? found.draft.policy.robots_allowed : null,
        alive: found.liveness.alive,
        // A moved candidate has nothing of its own to build a draft seed from: the contract found is the other site's.
        qualification: movedTo === null ? qualificationOf(found) : null,
        checked_at: found.liveness.checked_at,
      });
      const citer = { id: candidateCiter(item.domain), country: item.country, at: now() };
      let snowball = 0;
      if (movedTo !== null) {
        // The site it moved to is the source: a candidate of its own, unless it is a seed, a platform or decided.
        // Cited as the moved candidate's homepage (where it was found; DESIGN §12's found_in values), at its URL.
        const url = found.liveness.final_url as string;
        snowball = await candidates.recordOutlinks(trx, citer, [
          { domain: movedTo, url, anchor: '', found_in: 'homepage' },
        ]);
      } else if (news.verdict === 'news' && item.round < context.rounds) {
        // A news candidate's own links feed the next round.
        snowball = await candidates.recordOutlinks(trx, citer, found.metadata.outlinks);
      }
      const result = {
        domain: item.domain,
        round: item.round,
        verdict: news.verdict,
        score: news.score,
        country_guess: found.metadata.country_guess?.code ?? null,
        state,
        new_candidates: snowball,
        // What qualifying it cost the site, as a contract item says it.
        requests: found.metadata.requests,
      };
      if (state === null)
        return { status: 'skipped', outcome: 'gone', reason: 'no longer a candidate', result };
      return { status: 'succeeded', outcome: found.liveness.alive ? news.verdict : 'unreachable', result };
    };
  }

  /**
   * What a batch was made with (its country and parameters) never changes: read once per batch, not once per
   * chunk (the batch view counts every item of the batch by status and outcome).
   */
  const made = new Map<string, Promise<{ country: string; parameters: Parameters }>>();
  function madeWith(batchId: string): Promise<{ country: string; parameters: Parameters }> {
    const known = made.get(batchId);
    if (known) return known;
    const reading = deps.batches
      .get(batchId)
      .then((batch) => ({ country: batch.country, parameters: parametersOf(batch) }));
    // A failed read is not kept: the next chunk reads again.
    reading.catch(() => made.delete(batchId));
    if (made.size >= MADE_KEPT) made.delete(made.keys().next().value as string);
    made.set(batchId, reading);
    return reading;
  }

  /**
   * After a chunk's commit: when every item of the batch so far is answered, the next round's candidates are
   * added to it, once, whichever chunk gets here first. Idempotent: a redelivered chunk finds the step claimed.
   * Most chunks end while others still wait to be claimed, and learn it from one read.
   */
  async function advance(batchId: string): Promise<void> {
    // The steps first: a step another worker claims after this read makes the batch unfinished again (its
    // chunks are added with the claim), so this chunk cannot claim the round after it too early.
    const steps = await repository.steps(batchId);
    if (!(await deps.ledger.allAnswered(batchId))) return;
    const { country, parameters } = await madeWith(batchId);
    const round = steps.length + 1;
    if (round > parameters.rounds) return;
    // A round that found nothing to qualify ends the snowball: the next has nothing new to start from.
    if (steps.at(-1)?.items === 0) return;
    const items = await qualifyItems(country, parameters, round);
    await deps.database.transaction(async (trx) => {
      const claimed = await repository.claimStep(trx, {
        batchId,
        step: `qualify:${round}`,
        items: items.length,
        at: now(),
      });
      if (claimed) await deps.ledger.addChunks(trx, batchId, 'DISCOVERY_QUEUE', items, QUALIFY_CHUNK_SIZE);
    });
  }

  /** The parameters the batch was made with. */
  async function parameters(batchId: string): Promise<Parameters> {
    return (await madeWith(batchId)).parameters;
  }

  return { create, harvest, citingCountries, qualify, advance, parameters };
}

function parametersOf(batch: BatchView): Parameters {
  const kept = batch.summary['parameters'] as Partial<Parameters> | undefined;
  return { rounds: 1, max_candidates: 100, min_citations: 1, force: false, ...kept };
}

/** The registrable domain an entry page answered from, when it is not the candidate's own. */
function otherSiteOf(registrableDomain: string, finalUrl: string | null): string | null {
  if (finalUrl === null) return null;
  let host: string;
  try {
    host = new URL(finalUrl).hostname;
  } catch {
    return null;
  }
  const site = registrableDomainOf(host);
  return site === null || site === registrableDomain ? null : site;
}

/** A candidate that could not be reached is not news: nothing of it could be read. */
function unreachable(found: ContractDiscovery) {
  const why = found.reason ?? found.liveness.state;
  return {
    verdict: 'not_news' as const,
    score: 0,
    reasons: [{ signal: 'unreachable', weight: 0, evidence: why }],
  };
}

/** The contract a qualification found, kept for a draft seed built when a person accepts the candidate. */
function qualificationOf(found: ContractDiscovery): Qualification | null {
  const draft = found.draft;
  if (!draft) return null;
  return {
    contract: contractOf(draft),
    discovery: discoveryOf(found.liveness),
    facts: { ...factsOf(draft, found.metadata) },
    checked_at: found.liveness.checked_at,
  };
}
