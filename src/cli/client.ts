// Client commands: talk to a running Seedbed over HTTP (SEEDBED_URL, SEEDBED_API_KEY), so an operator or a
// script can submit work, follow batches and promote seeds. Stdout carries JSON and nothing else; progress and
// messages go to stderr.
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { type Call, ClientError, clientOptions, createClient, createDownload } from './http-client.js';
import { type BatchProgress, follow } from './progress.js';

const PAGE = 100;

function client(): Call {
  return createClient(clientOptions(process.env));
}

function print(value: unknown) {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A whole number written in decimal digits, for an option. */
function decimal(name: string, min: number) {
  return (value: string) => {
    if (!/^\d{1,9}$/.test(value.trim()) || Number(value) < min)
      throw new InvalidArgumentError(`${name} must be a whole number, at least ${min}`);
    return Number(value);
  };
}

function bool(value: string): boolean {
  const text = value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new InvalidArgumentError('must be true or false');
}

async function readLines(file: string): Promise<string[]> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function followBatch(call: Call, batchId: string) {
  return follow(
    () => call('GET', `/api/v1/queues/batch/${encodeURIComponent(batchId)}`) as Promise<BatchProgress>,
    process.stderr,
  );
}

interface ItemsOptions {
  status?: string;
  limit?: number;
  offset: number;
  all: boolean;
}

/** Items past the API's page of 100: fetched page by page up to --limit, or every one with --all. */
async function listItems(call: Call, batchId: string, options: ItemsOptions) {
  const wanted = options.all ? Number.POSITIVE_INFINITY : (options.limit ?? 50);
  const data: unknown[] = [];
  let total = 0;
  for (let offset = options.offset; data.length < wanted; ) {
    const limit = Math.min(PAGE, wanted - data.length);
    const query = new URLSearchParams({ limit: String(limit), offset: String(offset) });
    if (options.status) query.set('status', options.status);
    const page = (await call(
      'GET',
      `/api/v1/queues/batch/${encodeURIComponent(batchId)}/items?${query}`,
    )) as { data: unknown[]; pagination: { total: number } };
    data.push(...page.data);
    total = page.pagination.total;
    offset += page.data.length;
    if (page.data.length < limit || offset >= total) break;
  }
  return { data, pagination: { limit: data.length, offset: options.offset, total } };
}

export function clientCommands(program: Command): void {
  const submit = program
    .command('submit')
    .description('submit a batch to a running service (SEEDBED_URL, SEEDBED_API_KEY)');
  const submitted = async (call: Call, opts: { wait?: boolean }, batch: { batchId: string }) =>
    print(opts.wait ? await followBatch(call, batch.batchId) : batch);

  submit
    .command('research <file>')
    .description('a research batch from a file of URLs, one per line (- for stdin)')
    .requiredOption('--country <cc>')
    .requiredOption('--category <slug>')
    .option('--chunk-size <n>', 'URLs per chunk', decimal('--chunk-size', 1))
    .option('--wait', 'follow the batch until it finishes (progress on stderr)')
    .action(
      async (
        file: string,
        opts: { country: string; category: string; chunkSize?: number; wait?: boolean },
      ) => {
        const call = client();
        const batch = (await call('POST', '/api/v1/queues/research', {
          country: opts.country,
          category: opts.category,
          urls: await readLines(file),
          ...(opts.chunkSize ? { chunkSize: opts.chunkSize } : {}),
        })) as { batchId: string };
        await submitted(call, opts, batch);
      },
    );

  submit
    .command('liveness <file>')
    .description('a liveness batch from a file of domains, one per line')
    .requiredOption('--country <cc>')
    .option('--wait', 'follow the batch until it finishes (progress on stderr)')
    .action(async (file: string, opts: { country: string; wait?: boolean }) => {
      const call = client();
      const batch = (await call('POST', '/api/v1/queues/liveness', {
        country: opts.country,
        domains: await readLines(file),
      })) as { batchId: string };
      await submitted(call, opts, batch);
    });

  submit
    .command('contract <file>')
    .description('a contract batch from a file of domain ids, one per line')
    .requiredOption('--country <cc>')
    .requiredOption('--category <slug>')
    .option('--force', 'discover again the domains already collected today')
    .option('--wait', 'follow the batch until it finishes (progress on stderr)')
    .action(
      async (file: string, opts: { country: string; category: string; force?: boolean; wait?: boolean }) => {
        const call = client();
        const batch = (await call('POST', '/api/v1/queues/contract', {
          country: opts.country,
          category: opts.category,
          domainIds: await readLines(file),
          ...(opts.force ? { force: true } : {}),
        })) as { batchId: string };
        await submitted(call, opts, batch);
      },
    );

  program
    .command('batch <batchId>')
    .description('show a batch (--wait to follow it, --items to list its items)')
    .option('--wait', 'follow the batch until it finishes (progress on stderr)')
    .option('--items [status]', 'list its items, all or only succeeded, failed or skipped')
    .option(
      '--limit <n>',
      'with --items: how many (default 50; more than 100 are fetched page by page)',
      decimal('--limit', 1),
    )
    .option('--offset <n>', 'with --items: how many to pass over first', decimal('--offset', 0), 0)
    .option('--all', 'with --items: every one')
    .action(
      async (
        batchId: string,
        opts: { wait?: boolean; items?: string | boolean; limit?: number; offset: number; all?: boolean },
      ) => {
        const call = client();
        if (opts.wait) {
          const batch = await followBatch(call, batchId);
          if (!opts.items) return print(batch);
        }
        if (!opts.items)
          return print(await call('GET', `/api/v1/queues/batch/${encodeURIComponent(batchId)}`));
        print(
          await listItems(call, batchId, {
            ...(typeof opts.items === 'string' ? { status: opts.items } : {}),
            ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
            offset: opts.offset,
            all: opts.all ?? false,
          }),
        );
      },
    );

  program
    .command('recheck [seedIds...]')
    .description('re-check active seeds now (all, these ids, or those of --country / --category)')
    .option('--country <cc>')
    .option('--category <slug>')
    .option('--wait', 'follow the recheck batches until they finish (progress on stderr)')
    .action(async (seedIds: string[], opts: { country?: string; category?: string; wait?: boolean }) => {
      const call = client();
      const plan = (await call('POST', '/api/v1/queues/recheck', {
        ...(opts.country ? { country: opts.country } : {}),
        ...(opts.category ? { category: opts.category } : {}),
        ...(seedIds.length > 0 ? { seedIds } : {}),
      })) as { seeds: number; batches: Array<{ batchId: string }> };
      if (!opts.wait) return print(plan);
      const batches = [];
      for (const batch of plan.batches) batches.push(await followBatch(call, batch.batchId));
      print({ ...plan, batches });
    });

  program
    .command('promote [seedIds...]')
    .description('promote draft seeds to active: by id, or every draft matching the filter options')
    .option('--country <cc>')
    .option('--category <slug>')
    .option('--source-type <type>', 'government, organization, ngo, media, company or other')
    .option('--robots-allowed <bool>', 'true or false: whether robots.txt allows the entry page', bool)
    .option('--limit <n>', 'with a filter: at most this many (1..1000)', decimal('--limit', 1))
    .action(
      async (
        seedIds: string[],
        opts: {
          country?: string;
          category?: string;
          sourceType?: string;
          robotsAllowed?: boolean;
          limit?: number;
        },
      ) => {
        const filter = {
          ...(opts.country ? { country: opts.country } : {}),
          ...(opts.category ? { category: opts.category } : {}),
          ...(opts.sourceType ? { source_type: opts.sourceType } : {}),
          ...(opts.robotsAllowed !== undefined ? { robots_allowed: opts.robotsAllowed } : {}),
        };
        const filtered = Object.keys(filter).length > 0;
        if (seedIds.length > 0 && filtered)
          throw new ClientError('name seed ids or filter options, not both');
        if (seedIds.length === 0 && !filtered)
          throw new ClientError(
            'name seed ids, or filter the drafts with --country, --category, --source-type or --robots-allowed',
          );
        const body = filtered ? { filter, ...(opts.limit ? { limit: opts.limit } : {}) } : { seedIds };
        print(await client()('POST', '/api/v1/seeds/promote', body));
      },
    );

  program
    .command('export')
    .description('stream the seeds matching the filters as JSON lines, CSV or OPML (stdout, or --output)')
    .option('--format <format>', 'jsonl, csv or opml (the main feeds, for a feed reader)', 'jsonl')
    .option('--status <status>', 'draft, active, suspended or archived')
    .option('--country <cc>')
    .option('--category <slug>')
    .option('--source-type <type>', 'government, organization, ngo, media, company or other')
    .option('--output <file>', 'write to this file instead of stdout')
    .action(
      async (opts: {
        format: string;
        status?: string;
        country?: string;
        category?: string;
        sourceType?: string;
        output?: string;
      }) => {
        const query = new URLSearchParams({ format: opts.format });
        if (opts.status) query.set('status', opts.status);
        if (opts.country) query.set('country', opts.country);
        if (opts.category) query.set('category', opts.category);
        if (opts.sourceType) query.set('source_type', opts.sourceType);
        const body = await createDownload(clientOptions(process.env))(`/api/v1/seeds/export?${query}`);
        // Stdout is left open (other output may follow); a file is closed when the export ends.
        const sink: Writable = opts.output ? createWriteStream(opts.output) : process.stdout;
        await pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream), sink, {
          end: Boolean(opts.output),
        });
      },
    );
}
