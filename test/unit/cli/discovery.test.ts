// `discover` and `candidates` as their arguments reach the API: what each sends (only the options given, the
// right content type for a list), what each refuses before sending anything, and paging past 100. The service
// is a fake fetch; the commands are the real ones, on a program that throws instead of exiting.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { discoveryCommands, importFormatOf } from '../../../src/cli/discovery.js';

interface Sent {
  method: string;
  url: URL;
  type: string | null;
  body: string | null;
}

let sent: Sent[];
let stdout: string[];
let stderr: string[];
/** What the fake service answers to a request. */
let answer: (request: Sent) => unknown;

beforeEach(() => {
  sent = [];
  stdout = [];
  stderr = [];
  answer = () => ({ ok: true });
  vi.stubEnv('SEEDBED_URL', 'http://seedbed.test');
  vi.stubEnv('SEEDBED_API_KEY', 'k');
  vi.stubGlobal('fetch', async (url: URL, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    const body = init.body === undefined ? null : Buffer.from(init.body as string | Uint8Array).toString();
    const request = { method: init.method ?? 'GET', url, type: headers['content-type'] ?? null, body };
    sent.push(request);
    return new Response(JSON.stringify(answer(request)), { headers: { 'content-type': 'application/json' } });
  });
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
    stdout.push(String(text));
    return true;
  });
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Runs one command; answers what it printed on stdout, as JSON. */
async function run(...args: string[]) {
  stdout = [];
  const program = new Command('seedbed')
    .exitOverride()
    .configureOutput({ writeErr: (text) => stderr.push(text), writeOut: () => {} });
  discoveryCommands(program);
  await program.parseAsync(args, { from: 'user' });
  return JSON.parse(stdout.join('')) as unknown;
}

/** Runs a command that must be refused: the error commander throws, with nothing sent. */
async function refused(...args: string[]): Promise<CommanderError> {
  const error = await run(...args).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CommanderError);
  expect(sent).toEqual([]);
  return error as CommanderError;
}

const json = (request: Sent | undefined) => JSON.parse(request?.body ?? 'null');

describe('seedbed discover', () => {
  it('sends the country and only the options given, as the API names them', async () => {
    answer = () => ({ batchId: 'b1', status: 'queued' });
    expect(await run('discover', '--country', 'de')).toEqual({ batchId: 'b1', status: 'queued' });
    expect(json(sent[0])).toEqual({ country: 'de' });
    expect(sent[0]).toMatchObject({ method: 'POST', type: 'application/json' });
    expect(sent[0]?.url.pathname).toBe('/api/v1/queues/discovery');

    sent = [];
    await run(
      'discover',
      '--country',
      'at',
      '--category',
      'policy',
      '--rounds',
      '3',
      '--max-candidates',
      '20',
      '--min-citations',
      '2',
      '--force',
    );
    expect(json(sent[0])).toEqual({
      country: 'at',
      category: 'policy',
      rounds: 3,
      max_candidates: 20,
      min_citations: 2,
      force: true,
    });
    expect(sent).toHaveLength(1);
  });

  it('refuses rounds past 3, a number that is not whole, and no country', async () => {
    expect((await refused('discover', '--country', 'de', '--rounds', '4')).message).toContain(
      '--rounds must be a whole number from 1 to 3',
    );
    expect((await refused('discover', '--country', 'de', '--max-candidates', '2.5')).message).toContain(
      '--max-candidates',
    );
    expect((await refused('discover')).code).toBe('commander.missingMandatoryOptionValue');
  });
});

describe('seedbed candidates', () => {
  it('list: the filters as query parameters', async () => {
    answer = () => ({ data: [{ domain: 'a.de' }], pagination: { limit: 50, offset: 0, total: 1 } });
    const page = await run(
      'candidates',
      'list',
      '--country',
      'de',
      '--state',
      'qualified',
      '--verdict',
      'news',
      '--min-score',
      '0.6',
      '--sort',
      'citations',
    );
    expect(page).toEqual({ data: [{ domain: 'a.de' }], pagination: { limit: 1, offset: 0, total: 1 } });
    expect(sent[0]?.url.pathname).toBe('/api/v1/candidates');
    expect(Object.fromEntries(sent[0]?.url.searchParams ?? [])).toEqual({
      country: 'de',
      state: 'qualified',
      verdict: 'news',
      min_score: '0.6',
      sort: 'citations',
      limit: '50',
      offset: '0',
    });
  });

  it('list --all pages through every candidate, 100 at a time', async () => {
    const total = 230;
    answer = ({ url }) => {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const count = Math.max(0, Math.min(limit, total - offset));
      const data = Array.from({ length: count }, (_, i) => ({ domain: `site${offset + i}.de` }));
      return { data, pagination: { limit, offset, total } };
    };
    const all = (await run('candidates', 'list', '--state', 'new', '--all')) as {
      data: Array<{ domain: string }>;
      pagination: unknown;
    };
    expect(all.data).toHaveLength(total);
    expect(new Set(all.data.map((c) => c.domain)).size).toBe(total);
    expect(all.pagination).toEqual({ limit: total, offset: 0, total });
    expect(sent.map((r) => [r.url.searchParams.get('offset'), r.url.searchParams.get('limit')])).toEqual([
      ['0', '100'],
      ['100', '100'],
      ['200', '100'],
    ]);
    expect(sent.every((r) => r.url.searchParams.get('state') === 'new')).toBe(true);
  });

  it('list --all follows the list’s cursor after the first page, sending no offset beside it', async () => {
    const total = 230;
    answer = ({ url }) => {
      const cursor = url.searchParams.get('cursor');
      const offset = cursor === null ? Number(url.searchParams.get('offset')) : Number(cursor.slice(1));
      const limit = Number(url.searchParams.get('limit'));
      const count = Math.max(0, Math.min(limit, total - offset));
      const data = Array.from({ length: count }, (_, i) => ({ domain: `site${offset + i}.de` }));
      const next = offset + count < total ? `c${offset + count}` : null;
      return { data, pagination: { limit, offset: cursor === null ? offset : 0, total, next } };
    };
    const all = (await run('candidates', 'list', '--sort', 'score', '--offset', '10', '--all')) as {
      data: Array<{ domain: string }>;
    };
    expect(all.data.map((c) => c.domain)).toEqual(
      Array.from({ length: total - 10 }, (_, i) => `site${i + 10}.de`),
    );
    expect(sent.map((r) => [r.url.searchParams.get('offset'), r.url.searchParams.get('cursor')])).toEqual([
      ['10', null],
      [null, 'c110'],
      [null, 'c210'],
    ]);
  });

  it('list refuses a state, verdict, sort or score the API does not know, naming the choices', async () => {
    expect((await refused('candidates', 'list', '--state', 'pending')).message).toContain(
      'new, qualified, rejected, accepted',
    );
    expect((await refused('candidates', 'list', '--verdict', 'yes')).code).toBe('commander.invalidArgument');
    expect((await refused('candidates', 'list', '--sort', 'name')).message).toContain('first_seen');
    expect((await refused('candidates', 'list', '--min-score', '1.5')).message).toContain('from 0 to 1');
    expect((await refused('candidates', 'list', '--min-score', '')).message).toContain('from 0 to 1');
  });

  it('show names one candidate by its domain, as one path segment', async () => {
    await run('candidates', 'show', 'a.de/../x');
    expect(sent[0]?.url.pathname).toBe('/api/v1/candidates/a.de%2F..%2Fx');
  });

  it('accept sends the domains, and a country and category only when given', async () => {
    await run('candidates', 'accept', 'a.de', 'b.de');
    expect(json(sent[0])).toEqual({ domains: ['a.de', 'b.de'] });
    await run('candidates', 'accept', 'a.de', '--country', 'at', '--category', 'policy');
    expect(sent[1]?.url.pathname).toBe('/api/v1/candidates/accept');
    expect(json(sent[1])).toEqual({ domains: ['a.de'], country: 'at', category: 'policy' });
  });

  it('reject needs a reason: without one (or a blank one) it exits 2 and sends nothing', async () => {
    for (const args of [[], ['--reason', '  ']]) {
      const error = await refused('candidates', 'reject', 'a.de', ...args);
      expect(error.exitCode).toBe(2);
      expect(stderr.join('')).toContain('--reason is required');
      stderr = [];
    }
    await run('candidates', 'reject', 'a.de', 'b.de', '--reason', 'a shop');
    expect(sent[0]?.url.pathname).toBe('/api/v1/candidates/reject');
    expect(json(sent[0])).toEqual({ domains: ['a.de', 'b.de'], reason: 'a shop' });
  });
});

describe('seedbed candidates import', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-import-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads the format from the extension unless one is named; stdin is plain lines', () => {
    expect(importFormatOf('list.jsonl')).toBe('jsonl');
    expect(importFormatOf('LIST.NDJSON')).toBe('jsonl');
    expect(importFormatOf('a/b.csv')).toBe('csv');
    expect(importFormatOf('feeds.opml')).toBe('opml');
    expect(importFormatOf('feeds.xml')).toBe('opml');
    expect(importFormatOf('sites.txt')).toBe('text');
    expect(importFormatOf('sites')).toBe('text');
    expect(importFormatOf('-')).toBe('text');
    expect(importFormatOf('-', 'csv')).toBe('csv');
    expect(importFormatOf('sites.csv', 'text')).toBe('text');
  });

  it('sends the file as it is, under the content type of its format, with the label and country', async () => {
    const text = 'domain,source\nzeit.de,gap report\nspiegel.de,\n';
    await writeFile(join(dir, 'gap.csv'), text);
    await run('candidates', 'import', join(dir, 'gap.csv'), '--source', 'gaps', '--country', 'de');
    expect(sent[0]).toMatchObject({ method: 'POST', type: 'text/csv; charset=utf-8', body: text });
    expect(sent[0]?.url.pathname).toBe('/api/v1/candidates/import');
    expect(Object.fromEntries(sent[0]?.url.searchParams ?? [])).toEqual({ source: 'gaps', country: 'de' });

    await writeFile(join(dir, 'feeds.xml'), '<opml/>');
    await run('candidates', 'import', join(dir, 'feeds.xml'));
    expect(sent[1]).toMatchObject({ type: 'text/x-opml; charset=utf-8', body: '<opml/>' });
    expect(sent[1]?.url.search).toBe('');

    await run('candidates', 'import', join(dir, 'feeds.xml'), '--format', 'text');
    expect(sent[2]?.type).toBe('text/plain; charset=utf-8');
    sent = [];
    expect((await refused('candidates', 'import', 'x.csv', '--format', 'pdf')).message).toContain('jsonl');
  });
});
