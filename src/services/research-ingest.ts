// Research ingest: turns URLs into deduplicated research sources and raw dataset chunks. The same path
// serves POST /research (synchronously) and the research worker (one batch chunk at a time).
//
// Exactly-once, even with retries, crashes and concurrent chunks: (1) one transaction claims each
// normalised URL for one owner (a batch chunk or a request) — a URL already in the partition is a duplicate —
// and reserves that owner's chunk number; (2) the object is written create-only from what the owner holds;
// (3) a second transaction records the results. A retry repeats all three and finds the same claims.
import { type DatasetRecord, datasetIdOf } from '../domain/dataset.js';
import type { AuthorityOverrides } from '../domain/domains.js';
import { UnprocessableError } from '../domain/errors.js';
import type { Partition } from '../domain/identifiers.js';
import { type ClassifiedUrl, classifyUrl } from '../domain/urls.js';
import type { Database, DbTransaction, ResearchSourceTable } from '../ports/database.js';
import { type Clock, parseJson } from './common.js';
import type { DatasetService } from './datasets.js';

/** One input to ingest: a URL with whatever a research tool said about it. */
export interface ResearchInput {
  index: number;
  input: unknown;
  discovery_method?: string;
  confidence?: number;
  content_hints?: string[];
  extra?: Record<string, unknown>;
}

export type IngestOutcome =
  | {
      index: number;
      input: unknown;
      status: 'succeeded';
      outcome: 'new';
      result: { normalized_url: string; domain_id: string; raw_chunk: number };
    }
  | {
      index: number;
      input: unknown;
      status: 'skipped';
      outcome: 'duplicate';
      reason: string;
      result: { normalized_url: string };
    }
  | { index: number; input: unknown; status: 'failed'; outcome: 'invalid'; reason: string };

export interface IngestRequest {
  partition: Partition;
  owner: string;
  inputs: readonly ResearchInput[];
  queries?: readonly string[];
  methods?: readonly string[];
  notes?: string | null;
  defaultMethod: string;
  /**
   * For an owner named by a client's Idempotency-Key: the request's hash, recorded with the claims. A retry
   * with the same key and body resumes the same work; another body under that key is refused.
   */
  requestHash?: string;
}

export function createResearchIngest(deps: {
  database: Database;
  datasets: DatasetService;
  clock: Clock;
  /** The service's authority override table; the shipped one when absent. */
  authorityOverrides?: AuthorityOverrides;
}) {
  const { database, datasets, clock, authorityOverrides } = deps;
  const now = () => clock().toISOString();

  /** Claims, writes the raw chunk and answers per input; the caller records the answers (a batch's items). */
  async function ingest(
    request: IngestRequest,
  ): Promise<{ outcomes: IngestOutcome[]; chunk: number | null }> {
    const { partition, owner } = request;
    const classified: Array<
      { input: ResearchInput; value: ClassifiedUrl } | { input: ResearchInput; reason: string }
    > = request.inputs.map((input) => {
      const result = classifyUrl(input.input, partition.country, authorityOverrides);
      return result.ok ? { input, value: result.value } : { input, reason: result.reason };
    });
    const firstOfUrl = new Map<string, { input: ResearchInput; value: ClassifiedUrl }>();
    for (const entry of classified) {
      if ('value' in entry && !firstOfUrl.has(entry.value.normalized_url))
        firstOfUrl.set(entry.value.normalized_url, entry);
    }

    const claim = await database.transaction(async (trx) => {
      if (request.requestHash !== undefined) await holdRequest(trx, owner, request.requestHash);
      await mergeRecord(trx, request);
      const at = now();
      const rows = [...firstOfUrl.values()].map(({ input, value }) => ({
        ...partition,
        normalized_url: value.normalized_url,
        raw_url: value.raw_url,
        registrable_domain: value.registrable_domain,
        domain_id: value.domain_id,
        authority: value.authority,
        source_type: value.source_type,
        discovery_method: input.discovery_method ?? request.defaultMethod,
        confidence: input.confidence ?? 1,
        content_hints: JSON.stringify({ hints: input.content_hints ?? [], extra: input.extra ?? {} }),
        owner,
        raw_chunk: null,
        created_at: at,
      }));
      for (let i = 0; i < rows.length; i += 200) {
        await trx
          .insertInto('research_sources')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      const owned = await trx
        .selectFrom('research_sources')
        .selectAll()
        .where('owner', '=', owner)
        .orderBy('normalized_url')
        .execute();
      if (owned.length === 0) return { owned, chunk: null, createdAt: at };
      const reservation = await datasets.reserveChunk(trx, partition, { owner, origin: 'research' });
      await trx
        .updateTable('research_sources')
        .set({ raw_chunk: reservation.chunk })
        .where('owner', '=', owner)
        .execute();
      return { owned, chunk: reservation.chunk, createdAt: reservation.createdAt };
    });

    if (claim.chunk !== null) await writeOwnedChunk(partition, claim.chunk, claim.createdAt, claim.owned);

    const ownedUrls = new Set(claim.owned.map((row) => row.normalized_url));
    const outcomes: IngestOutcome[] = classified.map((entry): IngestOutcome => {
      const { index, input } = entry.input;
      if (!('value' in entry))
        return { index, input, status: 'failed', outcome: 'invalid', reason: entry.reason };
      const url = entry.value.normalized_url;
      if (ownedUrls.has(url) && firstOfUrl.get(url)?.input === entry.input) {
        return {
          index,
          input,
          status: 'succeeded',
          outcome: 'new',
          result: { normalized_url: url, domain_id: entry.value.domain_id, raw_chunk: claim.chunk as number },
        };
      }
      const reason = ownedUrls.has(url)
        ? 'duplicate of an earlier URL in the same request'
        : 'duplicate: already in this partition';
      return {
        index,
        input,
        status: 'skipped',
        outcome: 'duplicate',
        reason,
        result: { normalized_url: url },
      };
    });
    return { outcomes, chunk: claim.chunk };
  }

  /** Writes (create-only) the raw chunk of everything an owner claimed; a second writer keeps the first object. */
  async function writeOwnedChunk(
    partition: Partition,
    chunk: number,
    createdAt: string,
    owned: readonly ResearchSourceTable[],
  ): Promise<void> {
    const record = await database.db
      .selectFrom('research_records')
      .select(['queries', 'methods'])
      .where('country', '=', partition.country)
      .where('category', '=', partition.category)
      .where('date', '=', partition.date)
      .executeTakeFirstOrThrow();
    const records: DatasetRecord[] = owned.map((row) => {
      const hints = parseJson<{ hints: string[]; extra: Record<string, unknown> }>(row.content_hints, {
        hints: [],
        extra: {},
      });
      return {
        ...hints.extra,
        raw_url: row.raw_url,
        normalized_url: row.normalized_url,
        registrable_domain: row.registrable_domain,
        domain_id: row.domain_id,
        authority: row.authority as DatasetRecord['authority'],
        source_type: row.source_type as DatasetRecord['source_type'],
        discovery_method: row.discovery_method,
        confidence: Number(row.confidence),
        content_hints: hints.hints,
      };
    });
    await datasets.writeReserved(partition, chunk, {
      meta: {
        dataset_id: datasetIdOf(partition, chunk),
        ...partition,
        chunk: chunk,
        discovered_at: createdAt,
        research_methods: parseJson<string[]>(record.methods, []),
        queries: parseJson<string[]>(record.queries, []),
        engine: datasets.engineMeta(),
        record_count: records.length,
      },
      records,
    });
  }

  async function holdRequest(trx: DbTransaction, owner: string, requestHash: string): Promise<void> {
    await trx
      .insertInto('research_requests')
      .values({ owner, request_hash: requestHash, created_at: now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const held = await trx
      .selectFrom('research_requests')
      .select('request_hash')
      .where('owner', '=', owner)
      .executeTakeFirstOrThrow();
    if (held.request_hash !== requestHash)
      throw new UnprocessableError(
        'this Idempotency-Key was already used for a different request',
        'idempotency_key_reused',
      );
  }

  async function mergeRecord(trx: DbTransaction, request: IngestRequest): Promise<void> {
    const { partition } = request;
    const at = now();
    const existing = await trx
      .selectFrom('research_records')
      .selectAll()
      .where('country', '=', partition.country)
      .where('category', '=', partition.category)
      .where('date', '=', partition.date)
      .executeTakeFirst();
    const union = (old: string | undefined, added: readonly string[] | undefined) =>
      JSON.stringify([...new Set([...parseJson<string[]>(old, []), ...(added ?? [])])]);
    if (!existing) {
      await trx
        .insertInto('research_records')
        .values({
          ...partition,
          queries: union(undefined, request.queries),
          methods: union(undefined, request.methods ?? [request.defaultMethod]),
          notes: request.notes ?? null,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return;
    }
    await trx
      .updateTable('research_records')
      .set({
        queries: union(existing.queries, request.queries),
        methods: union(existing.methods, request.methods ?? [request.defaultMethod]),
        notes: request.notes ?? existing.notes,
        updated_at: at,
      })
      .where('country', '=', partition.country)
      .where('category', '=', partition.category)
      .where('date', '=', partition.date)
      .execute();
  }

  /**
   * Finishes synchronous requests that died between claiming their URLs and storing their chunk (a crash or
   * kill): their claims are written out as the chunk they reserved. Safe beside a live request doing the same,
   * since the object is written create-only from the same claims.
   */
  async function finishInterrupted(partition?: Partition): Promise<number> {
    const unfinished = await datasets.unfinishedRequestChunks(partition);
    for (const u of unfinished) {
      const owned = await database.db
        .selectFrom('research_sources')
        .selectAll()
        .where('owner', '=', u.owner)
        .orderBy('normalized_url')
        .execute();
      await writeOwnedChunk(u.partition, u.chunk, u.createdAt, owned);
    }
    return unfinished.length;
  }

  return { ingest, finishInterrupted };
}
