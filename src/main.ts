// The `seedbed` CLI: serve (API + workers), api, worker, migrate, keys, and client commands. This is the
// process entry point: the only place that reads process.env and handles signals. Commands that open the
// storage are loaded when they run (./cli/server-commands.ts), so a client command starts in a fraction of it.
import { Command, InvalidArgumentError } from 'commander';
import { clientCommands } from './cli/client.js';
import { QUEUE_NAMES, type QueueName } from './domain/queue-names.js';
import { readVersion } from './version.js';

const server = () => import('./cli/server-commands.js');

function parseQueues(value: string): QueueName[] {
  const names = value
    .split(',')
    .map((q) => q.trim().toUpperCase())
    .filter(Boolean);
  for (const name of names) {
    if (!(QUEUE_NAMES as readonly string[]).includes(name)) {
      throw new InvalidArgumentError(`unknown queue ${name}; known: ${QUEUE_NAMES.join(', ')}`);
    }
  }
  return names as QueueName[];
}

export function buildProgram(): Command {
  const program = new Command('seedbed')
    .description('Seedbed: open news-source discovery engine')
    .version(readVersion());

  program
    .command('serve')
    .description('API and every worker in one process (the embedded default)')
    .action(async () => (await server()).runServer({ workers: true }));
  program
    .command('api')
    .description('the HTTP API only')
    .action(async () => (await server()).runServer({ workers: false }));
  program
    .command('worker')
    .description('queue workers only')
    .option(
      '--queues <names>',
      `comma-separated queues (default: all of ${QUEUE_NAMES.join(',')})`,
      parseQueues,
    )
    .action(async (opts: { queues?: QueueName[] }) =>
      (await server()).runWorker(opts.queues ?? [...QUEUE_NAMES]),
    );
  program
    .command('migrate')
    .description('apply database migrations and exit')
    .action(async () => (await server()).migrate());

  const keys = program.command('keys').description('manage API keys stored in the database');
  keys
    .command('create <name>')
    .description('create a key; it is printed once and stored only as a hash')
    .option('--scopes <scopes>', 'comma-separated: read, write, admin', 'read,write')
    .action(async (name: string, opts: { scopes: string }) => (await server()).createKey(name, opts.scopes));
  keys
    .command('list')
    .description('list key names and scopes')
    .action(async () => (await server()).listKeys());
  keys
    .command('revoke <name>')
    .description('delete a stored key')
    .action(async (name: string) => (await server()).revokeKey(name));

  program
    .command('probe <domain>')
    .description(
      'run liveness and contract discovery for one domain and print what its seed would be (stores nothing)',
    )
    .option('--category <slug>', 'category of the would-be seed', 'news')
    .option('--country <cc>', 'country of the would-be seed', 'intl')
    .action(async (domain: string, opts: { category: string; country: string }) =>
      (await server()).probe(domain, opts),
    );

  clientCommands(program);
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`seedbed: ${message}\n`);
    // A configuration error (ConfigError, from the lazily loaded config module) exits 2.
    process.exit(error instanceof Error && error.name === 'ConfigError' ? 2 : 1);
  });
