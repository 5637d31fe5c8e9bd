// The package as it ships: `npm pack` builds dist/ (prepare) and packs only the whitelisted files; unpacked
// beside the production dependencies, without tsx or TypeScript, `seedbed` answers --help, migrates, serves and
// runs a client command. A global install does the same with a registry at hand (docs/packaging.md).
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS, API_KEYS_ENV, createApiSeedbed } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';
import { REPO_ROOT } from '../support/process.js';

const exec = promisify(execFile);
/** What a TypeScript run needs and an installed package must not. */
const DEV_ONLY = new Set(['tsx', 'typescript', 'vitest', '@biomejs', 'esbuild']);

describe('the packed package', () => {
  let dir: string;
  let pkg: string;
  let files: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-pack-'));
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: REPO_ROOT,
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    files = packed[0]?.files.map((f) => f.path) ?? [];
    await exec('tar', ['-xzf', join(dir, packed[0]?.filename ?? ''), '-C', dir]);
    pkg = join(dir, 'package');
    // The production dependencies, as an install would give them, with every development tool left out.
    const modules = join(pkg, 'node_modules');
    await mkdir(modules);
    const source = join(REPO_ROOT, 'node_modules');
    for (const name of await readdir(source)) {
      if (DEV_ONLY.has(name) || name.startsWith('.')) continue;
      await symlink(join(source, name), join(modules, name));
    }
  }, 300_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const seedbed = (args: string[], env: Record<string, string> = {}) =>
    exec(process.execPath, [join(pkg, 'bin', 'seedbed.js'), ...args], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...env },
      timeout: 60_000,
    });

  it('ships dist/, bin/, README and LICENSE, and nothing of the sources or tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/seedbed.js',
        'dist/main.js',
        'dist/cli/server-commands.js',
        'dist/adapters/sql/migrations.js',
        'dist/domain/authority-overrides.json',
        'README.md',
        'LICENSE',
        'package.json',
      ]),
    );
    expect(files.filter((f) => !/^(dist|bin)\//.test(f)).sort()).toEqual([
      'LICENSE',
      'README.md',
      'package.json',
    ]);
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
  });

  it('needs no TypeScript at run time: tsx is a development dependency', async () => {
    const manifest = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(manifest.scripts.start).toBe('node dist/main.js serve');
    const { stdout } = await seedbed(['--help']);
    expect(stdout).toContain('Usage: seedbed');
    expect(stdout).toContain('export');
    expect((await seedbed(['--version'])).stdout.trim()).toBe(manifest.version);
  });

  it('reads feeds on its worker thread from dist/, with no TypeScript loader', async () => {
    const modulePath = join(pkg, 'dist', 'adapters', 'feed-reader-pool.js');
    const { createFeedReaderPool } = (await import(
      modulePath
    )) as typeof import('../../src/adapters/feed-reader-pool.js');
    const pool = createFeedReaderPool(1);
    try {
      const body = Buffer.from(
        '<rss version="2.0"><channel><title>Shipped</title><item><title>One</title></item></channel></rss>',
      );
      expect(await pool.read(body, null, 'application/rss+xml')).toMatchObject({
        type: 'rss',
        title: 'Shipped',
      });
      expect(pool.stats).toEqual({ onWorkers: 1, onCaller: 0 });
    } finally {
      await pool.close();
    }
  });

  it('fetches on its own thread from dist/, with no TypeScript loader', async () => {
    const server = createServer((_req, res) => res.end('shipped\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const modulePath = join(pkg, 'dist', 'adapters', 'fetch-thread.js');
    const { createThreadedFetcher } = (await import(
      modulePath
    )) as typeof import('../../src/adapters/fetch-thread.js');
    const fetcher = createThreadedFetcher({
      userAgent: 'SeedbedBot/test',
      resolve: `shipped.test=127.0.0.1:${port}`,
    });
    try {
      const answer = await fetcher.fetch('http://shipped.test/', { kind: 'html' });
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toBe('shipped\n');
    } finally {
      await fetcher.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('migrates a fresh data directory (migrations and shipped data found in dist/)', async () => {
    const data = join(dir, 'data');
    await mkdir(data);
    const { stderr } = await seedbed(['migrate'], { SEEDBED_DATA_DIR: data });
    expect(stderr).toContain(`the SQLite database ${join(data, 'seedbed.db')}`);
    expect(stderr).toContain('migrations applied');
    const keys = await seedbed(['keys', 'list'], { SEEDBED_DATA_DIR: data });
    expect(JSON.parse(keys.stdout)).toEqual([]);
  });

  it('serves: /health answers and the OpenAPI document is there', async () => {
    const data = join(dir, 'serve-data');
    await mkdir(data);
    const child = spawn(process.execPath, [join(pkg, 'bin', 'seedbed.js'), 'serve'], {
      cwd: dir,
      env: {
        PATH: process.env['PATH'] ?? '',
        SEEDBED_DATA_DIR: data,
        PORT: '0',
        SEEDBED_NETWORK_CANARY: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no start:\n${out}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /"url":"(http:[^"]+)"/.exec(out);
          if (found?.[1]) {
            clearTimeout(timer);
            resolve(found[1]);
          }
        });
        child.stderr.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
      });
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths)).toContain('/api/v1/seeds/export');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  describe('a client command', () => {
    let t: TestSeedbed;
    let url: string;
    beforeAll(async () => {
      t = await createApiSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV });
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(() => t.close());

    it('talks to a running service', async () => {
      const { stdout } = await seedbed(['export', '--format', 'csv'], {
        SEEDBED_URL: url,
        SEEDBED_API_KEY: API_KEYS.read,
      });
      expect(stdout).toMatch(/^seed_id,domain_id,/);
    });
  });
});
