// What the client commands share (client.ts, discovery.ts): the client the environment names, JSON on stdout,
// option parsers, a file or stdin read whole, a batch followed with progress on stderr, and lists fetched page
// by page past the API's page of 100. One copy, so every command behaves the same way in a script.
import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import { type Call, clientOptions, createClient } from './http-client.js';
import { type BatchProgress, follow } from './progress.js';

/** The API's largest page (MAX_LIMIT of the pagination schema). */
const PAGE = 100;
/** The API's default page, kept when the caller names no --limit. */
const DEFAULT_LIMIT = 50;

export function client(): Call {
  return createClient(clientOptions(process.env));
}

export function print(value: unknown) {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A whole number written in decimal digits, for an option; `max` when the API has a bound too. */
export function decimal(name: string, min: number, max?: number) {
  return (value: string) => {
    const n = Number(value);
    if (!/^\d{1,9}$/.test(value.trim()) || n < min || (max !== undefined && n > max))
      throw new InvalidArgumentError(
        max === undefined
          ? `${name} must be a whole number, at least ${min}`
          : `${name} must be a whole number from ${min} to ${max}`,
      );
    return n;
  };
}

/** A file's bytes, or stdin's for `-`. */
export async function readInput(file: string): Promise<Buffer> {
  if (file !== '-') return readFile(file);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A file's lines, trimmed, without blanks and # comments. */
export async function readLines(file: string): Promise<string[]> {
  return (await readInput(file))
    .toString('utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

export function followBatch(call: Call, batchId: string) {
  return follow(
    () => call('GET', `/api/v1/queues/batch/${encodeURIComponent(batchId)}`) as Promise<BatchProgress>,
    process.stderr,
  );
}

/** A batch just made: printed as the API answered, or with --wait followed to its end and printed then. */
export async function printBatch(call: Call, batch: { batchId: string }, wait: boolean | undefined) {
  print(wait ? await followBatch(call, batch.batchId) : batch);
}

export interface PageOptions {
  limit?: number;
  offset: number;
  all: boolean;
}

/**
 * A list endpoint read past its page of 100: page by page up to --limit (50 when not given, as the API), or
 * every row with --all. The first page starts at --offset; the next ones follow the list's `pagination.next`
 * cursor where it gives one (an index seek however deep, and rows added meanwhile shift nothing), else go on by
 * offset. Answers the API's own shape, its pagination saying what was fetched.
 */
export async function listPages(call: Call, path: string, filter: URLSearchParams, options: PageOptions) {
  const wanted = options.all ? Number.POSITIVE_INFINITY : (options.limit ?? DEFAULT_LIMIT);
  const data: unknown[] = [];
  let total = 0;
  let cursor: string | null | undefined;
  for (let offset = options.offset; data.length < wanted; ) {
    const limit = Math.min(PAGE, wanted - data.length);
    const query = new URLSearchParams(filter);
    query.set('limit', String(limit));
    if (typeof cursor === 'string') query.set('cursor', cursor);
    else query.set('offset', String(offset));
    const page = (await call('GET', `${path}?${query}`)) as {
      data: unknown[];
      pagination: { total: number; next?: string | null };
    };
    data.push(...page.data);
    total = page.pagination.total;
    offset += page.data.length;
    cursor = page.pagination.next;
    if (page.data.length < limit || cursor === null || (cursor === undefined && offset >= total)) break;
  }
  return { data, pagination: { limit: data.length, offset: options.offset, total } };
}
