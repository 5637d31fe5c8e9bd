// Client commands: talk to a running Seedbed over HTTP (SEEDBED_URL, SEEDBED_API_KEY), so an operator or a
// script can submit work, follow batches and promote seeds. Stdout carries JSON and nothing else; progress and
// messages go to stderr.
import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { client, decimal, followBatch, listPages, print, printBatch, readLines } from './client-support.js';
import { discoveryCommands } from './discovery.js';
import { type Call, clientOptions, createDownload } from './http-client.js';
import { seedActionCommands } from './seed-actions.js';
import { importCommand } from './seed-import.js';

export function clientCommands(program: Command): void {
  const submit = program
    .command('submit')
    .description('submit a batch to a running service (SEEDBED_URL, SEEDBED_API_KEY)');
  const submitted = (call: Call, opts: { wait?: boolean }, batch: { batchId: string }) =>
    printBatch(call, batch, opts.wait);

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
        const filter = new URLSearchParams(typeof opts.items === 'string' ? { status: opts.items } : {});
        print(
          await listPages(call, `/api/v1/queues/batch/${encodeURIComponent(batchId)}/items`, filter, {
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

  seedActionCommands(program);
  importCommand(program);
  discoveryCommands(program);
}
