// Research ingest: turns URLs into deduplicated research sources and raw dataset chunks. The same path
// serves POST /research (synchronously) and the research worker (one batch chunk at a time).
//
// Exactly-once, even with retries, crashes and concurrent chunks: (1) one transaction reserves the owner's chunk
// number and claims each normalised URL for that owner (a batch chunk or a request) — a URL already in the
// partition is a duplicate; (2) the object is written create-only from what the owner holds; (3) a second
// transaction records the results and marks the chunk stored. A retry repeats all three and finds the same
// claims and number.
import { type DatasetRecord, datasetIdOf } from '../domain/dataset.js';
import type { AuthorityOverrides } from '../domain/domains.js';
import { UnprocessableError } from '../domain/errors.js';
import type { Partition } from '../domain/identifiers.js';
import { type ClassifiedUrl, classifyUrl } from '../domain/urls.js';
import type { Database, DbExecutor, DbTransaction, ResearchSourceTable } from '../ports/database.js';
import { insertRowsCounted } from './bulk-insert.js';
import { type Clock, parseJson } from './common.js';
import { PARTITION_IS } from './dataset-catalog.js';
import type { DatasetService, WrittenChunk } from './datasets.js';
import { changedRows, runText, sqlText } from './sql-text.js';

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

/** The written step of an ingest: the answers, and the chunk still to be marked stored. */
export interface IngestResult {
  outcomes: IngestOutcome[];
  chunk: number | null;
  /**
   * Marks the written chunk stored (nothing when no chunk was written): a batch chunk runs it in the transaction
   * that records its answers, so a chunk is counted stored once its answers are in.
   */
  markStored: (executor: DbExecutor) => Promise<void>;
}

type Classified = { input: ResearchInput; value: ClassifiedUrl } | { input: ResearchInput; reason: string };

/** What step 1 (claim) holds for step 2 (write): opaque to callers, who pass it on. */
export interface IngestClaim {
  request: IngestRequest;
  classified: Classified[];
  firstOfUrl: Map<string, { input: ResearchInput; value: ClassifiedUrl }>;
  owned: ResearchSourceTable[];
  record: RecordLists;
  chunk: number | null;
  createdAt: string;
}

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

  /** Claims, writes and stores the raw chunk, and answers per input; the caller records the answers. */
  async function ingest(
    request: IngestRequest,
  ): Promise<{ outcomes: IngestOutcome[]; chunk: number | null }> {
    const { outcomes, chunk, markStored } = await write(
      await database.transaction((trx) => claim(trx, request)),
    );
    await markStored(database.db);
    return { outcomes, chunk };
  }

  /**
   * Step 1, in the caller's transaction: classifies the inputs, reserves the owner's chunk number and claims the
   * URLs. A batch chunk runs it in the transaction that claims the chunk itself: one durable commit for both.
   */
  async function claim(trx: DbTransaction, request: IngestRequest): Promise<IngestClaim> {
    const { partition, owner } = request;
    const classified: Classified[] = request.inputs.map((input) => {
      const result = classifyUrl(input.input, partition.country, authorityOverrides);
      return result.ok ? { input, value: result.value } : { input, reason: result.reason };
    });
    const firstOfUrl = new Map<string, { input: ResearchInput; value: ClassifiedUrl }>();
    for (const entry of classified) {
      if ('value' in entry && !firstOfUrl.has(entry.value.normalized_url))
        firstOfUrl.set(entry.value.normalized_url, entry);
    }
    if (request.requestHash !== undefined) await holdRequest(trx, owner, request.requestHash);
    const record = await mergeRecord(trx, request);
    const candidates = [...firstOfUrl.values()];
    // The number first, so each claim carries it. The same owner always gets the same number back: an owner
    // with none yet has claimed nothing (claims and reservation commit together), so the insert's RETURNING is
    // all it owns; a retry reads its earlier claims back.
    const reservation = await datasets.reserveChunk(trx, partition, { owner, origin: 'research' });
    const at = now();
    // In URL order: concurrent chunks claiming the same URLs on PostgreSQL wait on each other in one order
    // (never a deadlock), and the claims come out in the order the chunk's object lists them.
    const rows = candidates
      .sort((a, b) => byNormalizedUrl(a.value, b.value))
      .map(({ input, value }) => ({
        // Named one by one: a spread of the partition before a dozen more properties made each row a slow
        // dictionary object (ten times the cost of the literal).
        country: partition.country,
        category: partition.category,
        date: partition.date,
        normalized_url: value.normalized_url,
        raw_url: value.raw_url,
        registrable_domain: value.registrable_domain,
        domain_id: value.domain_id,
        authority: value.authority,
        source_type: value.source_type,
        discovery_method: input.discovery_method ?? request.defaultMethod,
        confidence: input.confidence ?? 1,
        content_hints:
          input.content_hints === undefined && input.extra === undefined
            ? NO_HINTS
            : JSON.stringify({ hints: input.content_hints ?? [], extra: input.extra ?? {} }),
        owner,
        raw_chunk: reservation.chunk,
        created_at: at,
      }));
    // No RETURNING: when every row went in (no URL was in the partition yet, the usual case) the rows are the
    // claims; only when some did not are the owner's URLs read back. RETURNING built a row object a URL for that.
    let inserted = 0;
    for (let i = 0; i < rows.length; i += CLAIMS_PER_INSERT)
      inserted += await insertRowsCounted(
        trx,
        database.dialect,
        'research_sources',
        CLAIM_COLUMNS,
        rows.slice(i, i + CLAIMS_PER_INSERT),
        'on conflict do nothing',
        { shareEqual: true },
      );
    let owned: ResearchSourceTable[] = rows;
    if (reservation.earlier)
      owned = await trx.selectFrom('research_sources').selectAll().where('owner', '=', owner).execute();
    else if (inserted < rows.length) {
      // No earlier reservation, so no earlier claims (they commit together): the owner's URLs are this insert's.
      const claimed = await runText<{ normalized_url: string }>(trx, database.dialect, URLS_OF_OWNER, [
        owner,
      ]);
      const urls = new Set(claimed.rows.map((row) => row.normalized_url));
      owned = rows.filter((row) => urls.has(row.normalized_url));
    }
    if (owned.length === 0) {
      // Every URL was a duplicate (or invalid): no chunk to write, so no number is kept.
      await datasets.releaseReservation(trx, partition, reservation.chunk);
      return { request, classified, firstOfUrl, owned, record, chunk: null, createdAt: at };
    }
    if (reservation.earlier) owned.sort(byNormalizedUrl);
    return {
      request,
      classified,
      firstOfUrl,
      owned,
      record,
      chunk: reservation.chunk,
      createdAt: reservation.createdAt,
    };
  }

  /** Step 2, outside any transaction: writes the claimed chunk's object and answers each input. */
  async function write(claim: IngestClaim): Promise<IngestResult> {
    const { partition } = claim.request;
    const { classified, firstOfUrl } = claim;
    const written =
      claim.chunk !== null
        ? await writeOwnedChunk(partition, claim.chunk, claim.createdAt, claim.owned, claim.record)
        : null;
    const markStored = async (executor: DbExecutor) => {
      if (written) await datasets.markStored(executor, partition, written);
    };

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
    return { outcomes, chunk: claim.chunk, markStored };
  }

  /**
   * Writes (create-only) the raw chunk of everything an owner claimed; a second writer keeps the first object.
   * The chunk is not marked stored yet: the caller marks it, in the transaction that records the answers.
   */
  async function writeOwnedChunk(
    partition: Partition,
    chunk: number,
    createdAt: string,
    owned: readonly ResearchSourceTable[],
    record: RecordLists,
  ): Promise<WrittenChunk> {
    const records: DatasetRecord[] = owned.map((row) => {
      // A URL without hints (every one a research batch sends) has nothing to parse or spread: a plain literal.
      if (row.content_hints === NO_HINTS) return recordOf(row, []);
      const hints = parseJson<{ hints: string[]; extra: Record<string, unknown> }>(row.content_hints, {
        hints: [],
        extra: {},
      });
      return { ...hints.extra, ...recordOf(row, hints.hints) };
    });
    return datasets.writeReservedObject(partition, chunk, {
      meta: {
        dataset_id: datasetIdOf(partition, chunk),
        ...partition,
        chunk: chunk,
        discovered_at: createdAt,
        research_methods: record.methods,
        queries: record.queries,
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

  /**
   * Adds the request's queries and methods to its partition's record; resolves with the lists as they now are.
   * A read and then an update (or an insert), not one upsert: the lists are merged in order, here, from the ones
   * read, and two first requests of a partition (PostgreSQL) must not overwrite each other's lists.
   */
  async function mergeRecord(trx: DbTransaction, request: IngestRequest): Promise<RecordLists> {
    const { partition } = request;
    const { dialect } = database;
    const at = now();
    const key = [partition.country, partition.category, partition.date];
    const [existing] = (await runText<RecordRow>(trx, dialect, RECORD_OF_PARTITION, key)).rows;
    const union = (old: string | undefined, added: readonly string[] | undefined) => [
      ...new Set([...parseJson<string[]>(old, []), ...(added ?? [])]),
    ];
    const queries = union(existing?.queries, request.queries);
    const methods = union(existing?.methods, request.methods ?? [request.defaultMethod]);
    if (!existing) {
      const inserted = await runText(trx, dialect, INSERT_RECORD, [
        ...key,
        JSON.stringify(queries),
        JSON.stringify(methods),
        request.notes ?? null,
        at,
        at,
      ]);
      if (changedRows(inserted) > 0) return { queries, methods };
      // A concurrent first request of the partition inserted it meanwhile (PostgreSQL): merge into that one.
      return mergeRecord(trx, request);
    }
    await runText(trx, dialect, UPDATE_RECORD, [
      JSON.stringify(queries),
      JSON.stringify(methods),
      request.notes ?? existing.notes,
      at,
      ...key,
    ]);
    return { queries, methods };
  }

  /**
   * Finishes synchronous requests that died between claiming their URLs and storing their chunk (a crash or
   * kill): their claims are written out as the chunk they reserved. Safe beside a live request doing the same,
   * since the object is written create-only from the same claims.
   */
  async function finishInterrupted(partition?: Partition): Promise<number> {
    const unfinished = await datasets.unfinishedRequestChunks(partition);
    for (const u of unfinished) {
      const [owned, record] = await Promise.all([
        database.db.selectFrom('research_sources').selectAll().where('owner', '=', u.owner).execute(),
        recordLists(u.partition),
      ]);
      const written = await writeOwnedChunk(
        u.partition,
        u.chunk,
        u.createdAt,
        owned.sort(byNormalizedUrl),
        record,
      );
      await datasets.markStored(database.db, u.partition, written);
    }
    return unfinished.length;
  }

  async function recordLists(partition: Partition): Promise<RecordLists> {
    const record = await database.db
      .selectFrom('research_records')
      .select(['queries', 'methods'])
      .where('country', '=', partition.country)
      .where('category', '=', partition.category)
      .where('date', '=', partition.date)
      .executeTakeFirstOrThrow();
    return {
      queries: parseJson<string[]>(record.queries, []),
      methods: parseJson<string[]>(record.methods, []),
    };
  }

  return { ingest, claim, write, finishInterrupted };
}

/** A claim's fields as its raw chunk holds them, without the extra fields its input came with. */
function recordOf(row: ResearchSourceTable, contentHints: string[]): DatasetRecord {
  return {
    raw_url: row.raw_url,
    normalized_url: row.normalized_url,
    registrable_domain: row.registrable_domain,
    domain_id: row.domain_id,
    authority: row.authority as DatasetRecord['authority'],
    source_type: row.source_type as DatasetRecord['source_type'],
    discovery_method: row.discovery_method,
    confidence: Number(row.confidence),
    content_hints: contentHints,
  };
}

/** A research record's lists, as a raw chunk's meta repeats them. */
interface RecordLists {
  queries: string[];
  methods: string[];
}

/** URL order by code units, the same on both backends (a database's collation need not be): a retry writes the same object. */
function byNormalizedUrl(a: { normalized_url: string }, b: { normalized_url: string }): number {
  return a.normalized_url < b.normalized_url ? -1 : a.normalized_url > b.normalized_url ? 1 : 0;
}

/** Claims per insert statement, well under either backend's limit on bound parameters. */
const CLAIMS_PER_INSERT = 200;

const CLAIM_COLUMNS = [
  'country',
  'category',
  'date',
  'normalized_url',
  'raw_url',
  'registrable_domain',
  'domain_id',
  'authority',
  'source_type',
  'discovery_method',
  'confidence',
  'content_hints',
  'owner',
  'raw_chunk',
  'created_at',
] as const satisfies ReadonlyArray<keyof ResearchSourceTable>;

/** content_hints of a URL that came without hints or extra fields: one shared string, not one JSON a row. */
const NO_HINTS = JSON.stringify({ hints: [], extra: {} });

const URLS_OF_OWNER = sqlText('select "normalized_url" from "research_sources" where "owner" = ?');

// The research record's statements, as text (sql-text.ts): every chunk of a research batch runs two of them.
const RECORD_OF_PARTITION = sqlText(
  `select "queries", "methods", "notes" from "research_records" where ${PARTITION_IS}`,
);
interface RecordRow {
  queries: string;
  methods: string;
  notes: string | null;
}
const INSERT_RECORD = sqlText(
  'insert into "research_records" ("country", "category", "date", "queries", "methods", "notes", "created_at", ' +
    '"updated_at") values (?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing',
);
const UPDATE_RECORD = sqlText(
  `update "research_records" set "queries" = ?, "methods" = ?, "notes" = ?, "updated_at" = ? where ${PARTITION_IS}`,
);
