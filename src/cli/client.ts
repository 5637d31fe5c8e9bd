// Client commands: talk to a running Seedbed over HTTP (SEEDBED_URL, SEEDBED_API_KEY), so an operator
// can submit work and follow batches from a shell.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';

interface ClientOptions {
  url: string;
  key?: string;
}

function clientOptions(): ClientOptions {
  const url = process.env['SEEDBED_URL'] ?? `http://127.0.0.1:${process.env['PORT'] ?? 8080}`;
  const key = process.env['SEEDBED_API_KEY'];
  return key ? { url, key } : { url };
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const { url, key } = clientOptions();
  const response = await fetch(new URL(path, url), {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const detail = (parsed as { detail?: string } | null)?.detail ?? text;
    throw new Error(`${method} ${path} answered ${response.status}: ${detail}`);
  }
  return parsed;
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

function print(value: unknown) {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function follow(batchId: string): Promise<unknown> {
  for (;;) {
    const batch = (await call('GET', `/api/v1/queues/batch/${batchId}`)) as {
      status: string;
      items: Record<string, number>;
    };
    process.stderr.write(`\r${batch.status}: ${JSON.stringify(batch.items)}   `);
    if (!['queued', 'running'].includes(batch.status)) {
      process.stderr.write('\n');
      return batch;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export function clientCommands(program: Command): void {
  const submit = program
    .command('submit')
    .description('submit a batch to a running service (SEEDBED_URL, SEEDBED_API_KEY)');
  const wait = (opts: { wait?: boolean }, batch: { batchId: string }) =>
    opts.wait ? follow(batch.batchId) : batch;

  submit
    .command('research <file>')
    .description('a research batch from a file of URLs, one per line (- for stdin)')
    .requiredOption('--country <cc>')
    .requiredOption('--category <slug>')
    .option('--chunk-size <n>', 'URLs per chunk', (v) => Number(v))
    .option('--wait', 'follow the batch until it finishes')
    .action(
      async (
        file: string,
        opts: { country: string; category: string; chunkSize?: number; wait?: boolean },
      ) => {
        const urls = await readLines(file);
        const batch = (await call('POST', '/api/v1/queues/research', {
          country: opts.country,
          category: opts.category,
          urls,
          ...(opts.chunkSize ? { chunkSize: opts.chunkSize } : {}),
        })) as { batchId: string };
        print(await wait(opts, batch));
      },
    );

  submit
    .command('liveness <file>')
    .description('a liveness batch from a file of domains, one per line')
    .requiredOption('--country <cc>')
    .option('--wait', 'follow the batch until it finishes')
    .action(async (file: string, opts: { country: string; wait?: boolean }) => {
      const batch = (await call('POST', '/api/v1/queues/liveness', {
        country: opts.country,
        domains: await readLines(file),
      })) as { batchId: string };
      print(await wait(opts, batch));
    });

  submit
    .command('contract <file>')
    .description('a contract batch from a file of domain ids, one per line')
    .requiredOption('--country <cc>')
    .requiredOption('--category <slug>')
    .option('--wait', 'follow the batch until it finishes')
    .action(async (file: string, opts: { country: string; category: string; wait?: boolean }) => {
      const batch = (await call('POST', '/api/v1/queues/contract', {
        country: opts.country,
        category: opts.category,
        domainIds: await readLines(file),
      })) as { batchId: string };
      print(await wait(opts, batch));
    });

  program
    .command('batch <batchId>')
    .description('show a batch (--wait to follow it, --items to list its items)')
    .option('--wait', 'follow the batch until it finishes')
    .option('--items <status>', 'list items: succeeded, failed or skipped')
    .action(async (batchId: string, opts: { wait?: boolean; items?: string }) => {
      if (opts.items)
        print(
          await call(
            'GET',
            `/api/v1/queues/batch/${batchId}/items?status=${encodeURIComponent(opts.items)}&limit=100`,
          ),
        );
      else print(opts.wait ? await follow(batchId) : await call('GET', `/api/v1/queues/batch/${batchId}`));
    });

  program
    .command('promote [seedIds...]')
    .description('promote draft seeds to active, by id or by --country')
    .option('--country <cc>')
    .action(async (seedIds: string[], opts: { country?: string }) => {
      if (seedIds.length === 0 && !opts.country)
        throw new Error('name seed ids, or --country to promote its drafts');
      const body =
        seedIds.length > 0 ? { seedIds } : { filter: opts.country ? { country: opts.country } : {} };
      print(await call('POST', '/api/v1/seeds/promote', body));
    });
}
