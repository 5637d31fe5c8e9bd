// `seedbed import FILE`: a JSON lines file (an export, or seeds as POST /seeds takes them) streamed to
// POST /api/v1/seeds/import while its answers stream back. Node's own http client, not fetch: the file is still
// being sent while the answers arrive, and a client that read them only after sending would stall the server
// (it stops reading the body while its answers are not read). Answers go to stdout as JSON lines (or only the
// summary with --summary), progress to stderr; the exit status is 1 when a line was rejected or the import stopped.
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createInterface } from 'node:readline';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { print } from './client-support.js';
import { baseOf, ClientError, clientOptions, refusal } from './http-client.js';
import { progressWriter } from './progress.js';

const PATH = '/api/v1/seeds/import';
const RESULTS = ['created', 'unchanged', 'proposed', 'rejected'] as const;
/** Progress is redrawn at most this often: a line per group would flood a log. */
const PROGRESS_MS = 500;

interface Tally {
  sent: number;
  answered: number;
  byResult: Record<(typeof RESULTS)[number], number>;
}

export function progressOfImport(tally: Tally, done = false): string {
  const results = RESULTS.map((name) => `${tally.byResult[name]} ${name}`).join(', ');
  return `${done ? 'done' : 'importing'}: ${tally.sent} lines sent, ${tally.answered} answered (${results})`;
}

export function importCommand(program: Command): void {
  program
    .command('import <file>')
    .description(
      'import seeds from a JSON lines file (- for stdin), e.g. an export: one answer per line on stdout, progress on stderr; exits 1 if a line was rejected',
    )
    .option('--summary', 'print only the summary (lines counted by result) instead of every answer')
    .action(async (file: string, opts: { summary?: boolean }) => {
      const source = file === '-' ? process.stdin : createReadStream(file);
      const outcome = await importFile(source, { summaryOnly: opts.summary ?? false });
      if (opts.summary)
        print(
          outcome.error ? { error: outcome.error, summary: outcome.summary } : { summary: outcome.summary },
        );
      if (outcome.error) process.stderr.write(`seedbed: the import stopped: ${outcome.error.detail}\n`);
      if (outcome.error || !outcome.summary || outcome.summary['rejected'] !== 0) process.exitCode = 1;
    });
}

interface Outcome {
  summary: Record<string, number> | null;
  error: { detail?: string } | null;
}

async function importFile(source: Readable, options: { summaryOnly: boolean }): Promise<Outcome> {
  const client = clientOptions(process.env);
  const base = baseOf(client);
  const url = new URL(PATH, base);
  const tally: Tally = {
    sent: 0,
    answered: 0,
    byResult: { created: 0, unchanged: 0, proposed: 0, rejected: 0 },
  };
  const progress = progressWriter(process.stderr);
  let shown = 0;
  const show = (force = false) => {
    if (!force && Date.now() - shown < PROGRESS_MS) return;
    shown = Date.now();
    progress.show(progressOfImport(tally));
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) tally.sent += 1;
      show();
      callback(null, chunk);
    },
  });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const req = send(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-ndjson',
      accept: 'application/x-ndjson',
      ...(client.key ? { authorization: `Bearer ${client.key}` } : {}),
    },
  });
  const answered = once(req, 'response') as Promise<[IncomingMessage]>;
  // The body may be cut short by the server (an import stopped, a refusal): the answer says why, not the pipe.
  const sending = pipeline(source, counter, req).catch((error: unknown) => error);
  let response: IncomingMessage;
  try {
    [response] = await answered;
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new ClientError(
      `cannot reach Seedbed at ${base.origin} (${code}): is it running? set SEEDBED_URL to its address`,
    );
  }
  if (response.statusCode !== 200) {
    let text = '';
    for await (const chunk of response) text += chunk;
    source.destroy();
    throw refusal('POST', PATH, base.origin, response.statusCode ?? 0, text, client);
  }
  const outcome: Outcome = { summary: null, error: null };
  for await (const line of createInterface({ input: response, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!line) continue;
    const answer = JSON.parse(line) as {
      result?: (typeof RESULTS)[number];
      summary?: Record<string, number>;
      error?: { detail?: string };
    };
    if (answer.summary) outcome.summary = answer.summary;
    if (answer.error) outcome.error = answer.error;
    if (answer.result) {
      tally.answered += 1;
      tally.byResult[answer.result] += 1;
    }
    // Stdout sets the pace: answers are not piled up in memory for a slow reader.
    if (!options.summaryOnly && !process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
    show();
  }
  await sending;
  progress.show(progressOfImport(tally, true));
  progress.done();
  if (!outcome.summary && !outcome.error) outcome.error = { detail: 'the answers ended before the summary' };
  return outcome;
}
