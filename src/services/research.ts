// Research records (where to look): synchronous creation through the shared ingest path
// (research-ingest.ts), listing, the index and the detail of one record.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { datasetRecordSchema } from '../domain/dataset.js';
import type { AuthorityOverrides } from '../domain/domains.js';
import { NotFoundError } from '../domain/errors.js';
import {
  categorySchema,
  countrySchema,
  dateSchema,
  type Partition,
  todayUtc,
} from '../domain/identifiers.js';
import { uuidv7 } from '../domain/ids.js';
import type { Database, DbTransaction } from '../ports/database.js';
import { type Clock, getOrCreate, type Page, type PageRequest, page, parseJson } from './common.js';
import type { DatasetService } from './datasets.js';
import { startsWith } from './prefix-match.js';
import { createResearchIngest, type ResearchInput } from './research-ingest.js';

export type { IngestClaim, IngestOutcome, IngestRequest, ResearchInput } from './research-ingest.js';

export const MAX_RESEARCH_URLS = 10_000;

export const researchCreateSchema = z
  .object({
    country: countrySchema,
    category: categorySchema,
    date: dateSchema.optional().meta({ description: 'Date partition; defaults to today (UTC)' }),
    urls: z.array(z.string().max(4096)).min(1).max(MAX_RESEARCH_URLS).optional(),
    records: z.array(datasetRecordSchema).min(1).max(MAX_RESEARCH_URLS).optional(),
    queries: z.array(z.string().trim().min(1).max(2000)).max(1000).optional(),
    methods: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
    notes: z.string().max(10_000).optional(),
  })
  .strict()
  .refine((body) => body.urls !== undefined || body.records !== undefined, {
    message: 'give urls, records, or both',
    path: ['urls'],
  })
  .refine((body) => (body.urls?.length ?? 0) + (body.records?.length ?? 0) <= MAX_RESEARCH_URLS, {
    message: `at most ${MAX_RESEARCH_URLS} urls and records together`,
    path: ['records'],
  })
  .meta({ id: 'ResearchCreateRequest' });
export type ResearchCreateRequest = z.infer<typeof researchCreateSchema>;

export type ResearchService = ReturnType<typeof createResearchService>;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function createResearchService(deps: {
  database: Database;
  datasets: DatasetService;
  clock: Clock;
  authorityOverrides?: AuthorityOverrides;
}) {
  const { database, clock } = deps;
  const { ingest, claim, write, finishInterrupted } = createResearchIngest(deps);

  /**
   * POST /research: ingest now, answer with the record and what happened to each input. An interrupted
   * request of the same partition is finished first; under an Idempotency-Key the owner is named by the key,
   * so a retry finds its own claims again and answers them as new.
   */
  async function create(body: ResearchCreateRequest, options: { idempotencyKey?: string | null } = {}) {
    const partition: Partition = {
      country: body.country,
      category: body.category,
      date: body.date ?? todayUtc(clock()),
    };
    await finishInterrupted(partition);
    const keyed = options.idempotencyKey ? sha256(options.idempotencyKey) : null;
    const inputs: ResearchInput[] = [
      ...(body.urls ?? []).map((url, index) => ({ index, input: url })),
      ...(body.records ?? []).map((record, i) => {
        const {
          raw_url,
          discovery_method,
          confidence,
          content_hints,
          normalized_url: _n,
          registrable_domain: _r,
          domain_id: _d,
          authority: _a,
          source_type: _s,
          ...extra
        } = record;
        return {
          index: (body.urls?.length ?? 0) + i,
          input: raw_url,
          ...(discovery_method !== undefined ? { discovery_method } : {}),
          ...(confidence !== undefined ? { confidence } : {}),
          ...(content_hints !== undefined ? { content_hints } : {}),
          extra,
        };
      }),
    ];
    const { outcomes, chunk } = await ingest({
      partition,
      owner: keyed ? `request:key:${keyed}` : `request:${uuidv7()}`,
      ...(keyed ? { requestHash: sha256(JSON.stringify({ ...body, date: partition.date })) } : {}),
      inputs,
      ...(body.queries ? { queries: body.queries } : {}),
      ...(body.methods ? { methods: body.methods } : {}),
      notes: body.notes ?? null,
      defaultMethod: 'manual',
    });
    const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).length;
    return {
      record: await detail(partition, { limit: 50, offset: 0 }),
      ingest: {
        raw_chunk: chunk,
        accepted: count('new'),
        duplicates: count('duplicate'),
        invalid: count('invalid'),
        errors: outcomes
          .filter((o) => o.status === 'failed')
          .slice(0, 100)
          .map((o) => ({ index: o.index, input: o.input, reason: 'reason' in o ? o.reason : null })),
      },
    };
  }

  async function list(filter: { country?: string; category?: string; date?: string } & PageRequest) {
    let query = database.db.selectFrom('research_records');
    if (filter.country) query = query.where('country', '=', filter.country);
    if (filter.category) query = query.where('category', '=', filter.category);
    if (filter.date) query = query.where('date', '=', filter.date);
    const [rows, total] = await Promise.all([
      query
        .selectAll()
        .orderBy('date', 'desc')
        .orderBy('country')
        .orderBy('category')
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    const counts = await sourceCounts(rows);
    return page(
      rows.map((r) => ({
        country: r.country,
        category: r.category,
        date: r.date,
        queries: parseJson<string[]>(r.queries, []),
        methods: parseJson<string[]>(r.methods, []),
        notes: r.notes,
        counts: counts.get(`${r.country}/${r.category}/${r.date}`) ?? { sources: 0, domains: 0 },
        created_at: r.created_at,
        updated_at: r.updated_at,
      })),
      filter,
      Number(total.n),
    );
  }

  async function sourceCounts(rows: readonly Partition[]) {
    const counts = new Map<string, { sources: number; domains: number }>();
    if (rows.length === 0) return counts;
    const grouped = await database.db
      .selectFrom('research_sources')
      .select((eb) => [
        'country',
        'category',
        'date',
        eb.fn.countAll().as('sources'),
        eb.fn.count('registrable_domain').distinct().as('domains'),
      ])
      .where('date', 'in', [...new Set(rows.map((r) => r.date))])
      .where('country', 'in', [...new Set(rows.map((r) => r.country))])
      .groupBy(['country', 'category', 'date'])
      .execute();
    for (const g of grouped)
      counts.set(`${g.country}/${g.category}/${g.date}`, {
        sources: Number(g.sources),
        domains: Number(g.domains),
      });
    return counts;
  }

  /** Table of contents: country → category → dates, with counts. */
  async function index() {
    const rows = await database.db
      .selectFrom('research_sources')
      .select((eb) => ['country', 'category', 'date', eb.fn.countAll().as('sources')])
      .groupBy(['country', 'category', 'date'])
      .orderBy('country')
      .orderBy('category')
      .orderBy('date')
      .execute();
    const records = await database.db
      .selectFrom('research_records')
      .select(['country', 'category', 'date'])
      .execute();
    // country → category → date → sources; a record with no sources yet still shows, with 0.
    const tree = new Map<string, Map<string, Map<string, number>>>();
    const dates = (r: Partition) =>
      getOrCreate(
        getOrCreate(tree, r.country, () => new Map()),
        r.category,
        () => new Map<string, number>(),
      );
    for (const r of records) dates(r).set(r.date, 0);
    for (const r of rows) dates(r).set(r.date, Number(r.sources));
    const countries = [...tree].map(([country, categories]) => ({
      country,
      categories: [...categories].map(([category, byDate]) => ({
        category,
        dates: [...byDate]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([date, sources]) => ({ date, sources })),
      })),
    }));
    return {
      countries,
      totals: { records: records.length, sources: rows.reduce((n, r) => n + Number(r.sources), 0) },
    };
  }

  async function detail(partition: Partition, sources: PageRequest) {
    const record = await database.db
      .selectFrom('research_records')
      .selectAll()
      .where('country', '=', partition.country)
      .where('category', '=', partition.category)
      .where('date', '=', partition.date)
      .executeTakeFirst();
    if (!record)
      throw new NotFoundError(
        `no research record for ${partition.country}/${partition.category}/${partition.date}`,
      );
    const inPartition = database.db
      .selectFrom('research_sources')
      .where('country', '=', partition.country)
      .where('category', '=', partition.category)
      .where('date', '=', partition.date);
    const [rows, counts, chunks] = await Promise.all([
      inPartition.selectAll().orderBy('normalized_url').limit(sources.limit).offset(sources.offset).execute(),
      inPartition
        .select((eb) => [
          eb.fn.countAll().as('sources'),
          eb.fn.count('registrable_domain').distinct().as('domains'),
        ])
        .executeTakeFirstOrThrow(),
      database.db
        .selectFrom('dataset_chunks')
        .select(['chunk', 'key', 'record_count', 'bytes', 'origin'])
        .where('country', '=', partition.country)
        .where('category', '=', partition.category)
        .where('date', '=', partition.date)
        .where('status', '=', 'stored')
        .orderBy('chunk')
        .execute(),
    ]);
    const sourcePage: Page<unknown> = page(
      rows.map((r) => ({
        normalized_url: r.normalized_url,
        raw_url: r.raw_url,
        registrable_domain: r.registrable_domain,
        domain_id: r.domain_id,
        authority: r.authority,
        source_type: r.source_type,
        discovery_method: r.discovery_method,
        confidence: Number(r.confidence),
        raw_chunk: r.raw_chunk === null ? null : Number(r.raw_chunk),
        created_at: r.created_at,
      })),
      sources,
      Number(counts.sources),
    );
    return {
      country: record.country,
      category: record.category,
      date: record.date,
      queries: parseJson<string[]>(record.queries, []),
      methods: parseJson<string[]>(record.methods, []),
      notes: record.notes,
      counts: { sources: Number(counts.sources), domains: Number(counts.domains), raw_chunks: chunks.length },
      raw_chunks: chunks.map((c) => ({
        chunk: Number(c.chunk),
        key: c.key,
        record_count: Number(c.record_count),
        bytes: Number(c.bytes),
      })),
      sources: sourcePage,
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
  }

  /** The chunk's URLs leave the partition with it, so they can be discovered again. */
  async function releaseChunk(trx: DbTransaction, partition: Partition, chunk: number): Promise<void> {
    await trx
      .deleteFrom('research_sources')
      .where('country', '=', partition.country)
      .where('category', '=', partition.category)
      .where('date', '=', partition.date)
      .where('raw_chunk', '=', chunk)
      .execute();
  }

  /** What a research batch found: distinct registrable domains and the raw chunks its chunks wrote. */
  async function batchSummary(batchId: string) {
    // Owners are `batch:<id>:<chunk>` (the research worker): a prefix match the owner index answers (prefix-match.ts).
    const owners = `batch:${batchId}:`;
    const [domains, rawChunks] = await Promise.all([
      database.db
        .selectFrom('research_sources')
        .select((eb) => eb.fn.count('registrable_domain').distinct().as('n'))
        .where((eb) => startsWith(eb, 'owner', owners, database.dialect))
        .executeTakeFirstOrThrow(),
      deps.datasets.countStoredByOwnerPrefix(owners),
    ]);
    return { domains: Number(domains.n), raw_chunks: rawChunks };
  }

  async function countRecords(): Promise<number> {
    const row = await database.db
      .selectFrom('research_records')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  return {
    ingest,
    /** A batch chunk's ingest in two steps: claim (in the chunk's claiming transaction), then write. */
    claimUrls: claim,
    writeClaimed: write,
    finishInterrupted,
    create,
    list,
    index,
    detail,
    releaseChunk,
    batchSummary,
    countRecords,
  };
}
