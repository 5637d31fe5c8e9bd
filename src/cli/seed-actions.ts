// `promote` and `archive` from a shell: explicit seed ids, or every seed the filter options match. The API answers a
// selection (and a filter matching up to 1,000) at once, per seed; past that it makes a batch, which --wait follows
// with progress on stderr, like `discover --wait`. JSON on stdout only, as every client command.
import { type Command, InvalidArgumentError } from 'commander';
import { client, decimal, print, printBatch } from './client-support.js';
import { ClientError } from './http-client.js';

function bool(value: string): boolean {
  const text = value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new InvalidArgumentError('must be true or false');
}

interface FilterOptions {
  country?: string;
  category?: string;
  sourceType?: string;
  robotsAllowed?: boolean;
  language?: string;
  ai?: string;
  freshness?: string;
  health?: string;
  verdict?: string;
  status?: string;
  limit?: number;
  wait?: boolean;
}

/** The option name of each filter field of the API (the API checks the values and names a bad one). */
const FILTERS: Array<[keyof FilterOptions, string]> = [
  ['country', 'country'],
  ['category', 'category'],
  ['sourceType', 'source_type'],
  ['robotsAllowed', 'robots_allowed'],
  ['language', 'language'],
  ['ai', 'ai'],
  ['freshness', 'freshness'],
  ['health', 'health'],
  ['verdict', 'verdict'],
  ['status', 'status'],
];

function filterOf(opts: FilterOptions): Record<string, unknown> {
  return Object.fromEntries(
    FILTERS.filter(([option]) => opts[option] !== undefined).map(([option, field]) => [field, opts[option]]),
  );
}

function withFilterOptions(command: Command): Command {
  return command
    .option('--country <cc>')
    .option('--category <slug>')
    .option('--source-type <type>', 'government, organization, ngo, media, company or other')
    .option('--robots-allowed <bool>', 'true or false: whether robots.txt allows the entry page', bool)
    .option('--language <tag>', 'a language tag: fr also matches fr-ca')
    .option('--ai <policy>', 'disallowed, allowed or reserved')
    .option('--freshness <state>', 'fresh, stale or unknown')
    .option('--health <state>', 'ok, failing or stale')
    .option('--verdict <verdict>', 'news, maybe or not_news')
    .option(
      '--limit <n>',
      'with a filter: only the first n matches by seed id (default: every match)',
      decimal('--limit', 1, 1_000_000),
    )
    .option('--wait', 'when the move runs as a batch, follow it until it finishes (progress on stderr)');
}

async function move(action: 'promote' | 'archive', seedIds: string[], opts: FilterOptions) {
  const filter = filterOf(opts);
  const filtered = Object.keys(filter).length > 0;
  if (seedIds.length > 0 && filtered) throw new ClientError('name seed ids or filter options, not both');
  if (seedIds.length === 0 && !filtered)
    throw new ClientError('name seed ids, or filter the seeds with the filter options (see --help)');
  const body = filtered ? { filter, ...(opts.limit ? { limit: opts.limit } : {}) } : { seedIds };
  const call = client();
  const answer = (await call('POST', `/api/v1/seeds/${action}`, body)) as { batchId?: string };
  if (typeof answer.batchId === 'string') return printBatch(call, { batchId: answer.batchId }, opts.wait);
  print(answer);
}

export function seedActionCommands(program: Command): void {
  withFilterOptions(
    program
      .command('promote [seedIds...]')
      .description(
        'promote draft seeds to active: by id, or every draft matching the filter options (a batch past 1,000)',
      ),
  ).action((seedIds: string[], opts: FilterOptions) => move('promote', seedIds, opts));

  withFilterOptions(
    program
      .command('archive [seedIds...]')
      .description('archive seeds: by id, or every seed matching the filter options (a batch past 1,000)')
      .option('--status <status>', 'draft, active or suspended: archive only seeds in this status'),
  ).action((seedIds: string[], opts: FilterOptions) => move('archive', seedIds, opts));
}
