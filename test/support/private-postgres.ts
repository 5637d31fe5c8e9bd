// A PostgreSQL cluster of one test's own (initdb into a temp dir, a free port), for tests that stop and
// restart the server: the shared cluster on 5432 serves every other test file running in parallel and
// must never go down. initdb and postgres refuse to run as root, so as root (CI, the dev container) they
// run as the `postgres` OS user, in a directory that user owns.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';
const OS_USER = 'postgres';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication). */
  url: string;
  port: number;
  /** Fast shutdown: every session is terminated, new connections are refused until start(). */
  stop(): Promise<void>;
  /** Starts the same cluster again, on the same port and data directory. */
  start(): Promise<void>;
  /** Stops the cluster (immediately) and deletes its directory. */
  destroy(): Promise<void>;
}

/** The newest installed server's bin directory; SEEDBED_TEST_PG_BIN overrides. */
function binDirectory(): string {
  const fromEnv = process.env['SEEDBED_TEST_PG_BIN'];
  if (fromEnv) return fromEnv;
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${PG_ROOT}/*/bin`);
  return join(PG_ROOT, versions[0]!, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function osUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', OS_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', OS_USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDirectory();
  const user = osUser();
  const directory = await mkdtemp(join(tmpdir(), 'seedbed-pg-'));
  if (user) await chown(directory, user.uid, user.gid);
  const dataDir = join(directory, 'data');
  const port = await freePort();
  const pgCtl = (...args: string[]) => {
    const command = [join(bin, 'pg_ctl'), '-D', dataDir, ...args];
    return user ? run('runuser', ['-u', OS_USER, '--', ...command]) : run(command[0]!, command.slice(1));
  };

  let running = false;
  const stopNow = (): void => {
    if (!running) return;
    running = false;
    const command = [join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', '-w', 'stop'];
    try {
      if (user) execFileSync('runuser', ['-u', OS_USER, '--', ...command], { stdio: 'ignore' });
      else execFileSync(command[0]!, command.slice(1), { stdio: 'ignore' });
    } catch {
      // already down
    }
  };
  // A test run that dies must not leave a postgres server behind.
  process.once('exit', stopNow);

  const handle: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await pgCtl(
        '-l',
        join(directory, 'server.log'),
        '-w',
        '-o',
        // fsync off: throw-away data; the socket lives in our directory, not /var/run/postgresql.
        `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
        'start',
      );
      running = true;
    },
    async stop() {
      await pgCtl('-m', 'fast', '-w', 'stop');
      running = false;
    },
    async destroy() {
      process.removeListener('exit', stopNow);
      stopNow();
      await rm(directory, { recursive: true, force: true });
    },
  };

  try {
    const initdb = [
      join(bin, 'initdb'),
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
    ];
    if (user) await run('runuser', ['-u', OS_USER, '--', ...initdb]);
    else await run(initdb[0]!, initdb.slice(1));
    await handle.start();
    return handle;
  } catch (error) {
    await handle.destroy();
    throw error;
  }
}
