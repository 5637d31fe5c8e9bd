// Discovery from a shell: `discover` makes a discovery batch (a country's seeds read for links, the candidates
// found qualified), `candidates` lists, shows and decides them and imports a person's list as a gap report.
// Client commands like the others (client.ts): JSON on stdout only, progress and messages on stderr. The value
// lists come from discovery-values.ts, not the schemas, so these commands start as fast as the rest.
import { extname } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  CANDIDATE_SORTS,
  CANDIDATE_STATES,
  IMPORT_CONTENT_TYPES,
  IMPORT_FORMATS,
  type ImportFormat,
  NEWS_VERDICTS,
} from '../domain/discovery-values.js';
import { client, decimal, listPages, print, printBatch, readInput } from './client-support.js';
import { RawBody } from './http-client.js';

/** A score bound as the API takes it: a number from 0 to 1. */
function score(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError('--min-score must be a number from 0 to 1');
  return n;
}

/** The format of a list: the one named, else the file's extension says it; stdin and the rest are plain lines. */
export function importFormatOf(file: string, named?: ImportFormat): ImportFormat {
  if (named) return named;
  const extension = file === '-' ? '' : extname(file).toLowerCase();
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.csv') return 'csv';
  if (extension === '.opml' || extension === '.xml') return 'opml';
  return 'text';
}

/** The path of one candidate: a domain is a path segment, never a path. */
const candidatePath = (domain: string) => `/api/v1/candidates/${encodeURIComponent(domain)}`;

export function discoveryCommands(program: Command): void {
  program
    .command('discover')
    .description(
      'a discovery batch: read the seeds of a country for links to other sites, then qualify the candidates found',
    )
    .requiredOption('--country <cc>', 'the country whose seeds are read (its candidates when it has none)')
    .option('--category <slug>', 'the category of the seeds read (default news)')
    .option('--rounds <n>', 'rounds of qualification, 1..3 (default 1)', decimal('--rounds', 1, 3))
    .option(
      '--max-candidates <n>',
      'candidates qualified per round at most, most cited first (default 100)',
      decimal('--max-candidates', 1, 10_000),
    )
    .option(
      '--min-citations <n>',
      'qualify only candidates cited by this many sources (default 1)',
      decimal('--min-citations', 1, 1000),
    )
    .option('--force', 'read every seed again, even those read in the last 7 days; qualify rejected ones too')
    .option('--wait', 'follow the batch until it finishes (progress on stderr)')
    .action(
      async (opts: {
        country: string;
        category?: string;
        rounds?: number;
        maxCandidates?: number;
        minCitations?: number;
        force?: boolean;
        wait?: boolean;
      }) => {
        const call = client();
        // Only what was given: the API's defaults are the ones documented, kept in one place.
        const batch = (await call('POST', '/api/v1/queues/discovery', {
          country: opts.country,
          ...(opts.category !== undefined ? { category: opts.category } : {}),
          ...(opts.rounds !== undefined ? { rounds: opts.rounds } : {}),
          ...(opts.maxCandidates !== undefined ? { max_candidates: opts.maxCandidates } : {}),
          ...(opts.minCitations !== undefined ? { min_citations: opts.minCitations } : {}),
          ...(opts.force ? { force: true } : {}),
        })) as { batchId: string };
        await printBatch(call, batch, opts.wait);
      },
    );

  const candidates = program
    .command('candidates')
    .description(
      'sites discovery found (or a list named) that are not seeds: list, show, accept, reject, import',
    );

  candidates
    .command('list')
    .description('candidates matching the filters (page by page past 100)')
    .option('--country <cc>')
    .addOption(new Option('--state <state>').choices(CANDIDATE_STATES))
    .addOption(
      new Option('--verdict <verdict>', 'the news verdict of its qualification').choices(NEWS_VERDICTS),
    )
    .option('--min-score <score>', 'news score at least, 0..1', score)
    .addOption(
      new Option('--sort <order>', 'score and citations highest first, first_seen newest first').choices(
        CANDIDATE_SORTS,
      ),
    )
    .option(
      '--limit <n>',
      'how many (default 50; more than 100 are fetched page by page)',
      decimal('--limit', 1),
    )
    .option('--offset <n>', 'how many to pass over first', decimal('--offset', 0), 0)
    .option('--all', 'every one')
    .action(
      async (opts: {
        country?: string;
        state?: string;
        verdict?: string;
        minScore?: number;
        sort?: string;
        limit?: number;
        offset: number;
        all?: boolean;
      }) => {
        const filter = new URLSearchParams();
        if (opts.country) filter.set('country', opts.country);
        if (opts.state) filter.set('state', opts.state);
        if (opts.verdict) filter.set('verdict', opts.verdict);
        if (opts.minScore !== undefined) filter.set('min_score', String(opts.minScore));
        if (opts.sort) filter.set('sort', opts.sort);
        print(
          await listPages(client(), '/api/v1/candidates', filter, {
            ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
            offset: opts.offset,
            all: opts.all ?? false,
          }),
        );
      },
    );

  candidates
    .command('show <domain>')
    .description('one candidate with its evidence: verdict, country guess and who cites it')
    .action(async (domain: string) => print(await client()('GET', candidatePath(domain))));

  candidates
    .command('accept <domains...>')
    .description('draft seeds from qualified candidates; one answer per domain (skipped ones say why)')
    .option('--country <cc>', 'the seeds’ country (default: each candidate’s own)')
    .option('--category <slug>', 'the seeds’ category (default news)')
    .action(async (domains: string[], opts: { country?: string; category?: string }) => {
      print(
        await client()('POST', '/api/v1/candidates/accept', {
          domains,
          ...(opts.country !== undefined ? { country: opts.country } : {}),
          ...(opts.category !== undefined ? { category: opts.category } : {}),
        }),
      );
    });

  candidates
    .command('reject <domains...>')
    .description('reject candidates; they are never proposed again')
    .option('--reason <text>', 'required: why, kept with the decision')
    .action(async (domains: string[], opts: { reason?: string }, command: Command) => {
      // A rejection is remembered for good, so it never goes without its reason; like any misuse of the command
      // line that a script must not retry as it is, it exits 2 before anything is sent.
      if (!opts.reason?.trim())
        command.error('error: --reason is required: say why these candidates are rejected', {
          exitCode: 2,
          code: 'seedbed.reasonRequired',
        });
      print(await client()('POST', '/api/v1/candidates/reject', { domains, reason: opts.reason }));
    });

  candidates
    .command('import <file>')
    .description(
      'a list of sources (- for stdin) read against the directory: seed, candidate or new, line by line',
    )
    .option('--source <label>', 'a label for the list, kept with its candidates (default import)')
    .option('--country <cc>', 'the country its new candidates are for (default intl)')
    .addOption(
      new Option(
        '--format <format>',
        'default: .jsonl/.ndjson, .csv, .opml/.xml by extension, plain lines otherwise',
      ).choices(IMPORT_FORMATS),
    )
    .action(async (file: string, opts: { source?: string; country?: string; format?: ImportFormat }) => {
      const format = importFormatOf(file, opts.format);
      const query = new URLSearchParams();
      if (opts.source !== undefined) query.set('source', opts.source);
      if (opts.country !== undefined) query.set('country', opts.country);
      const body = new RawBody(await readInput(file), `${IMPORT_CONTENT_TYPES[format]}; charset=utf-8`);
      const search = query.size > 0 ? `?${query}` : '';
      print(await client()('POST', `/api/v1/candidates/import${search}`, body));
    });
}
