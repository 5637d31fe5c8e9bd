// POST /api/v1/seeds/import: seeds as JSON lines, read as a stream and answered as a stream, one answer per line
// in line order, then a summary line. A plugin of its own: its body is never parsed by the JSON parser (the
// request stream is handed to the route as it is) and only JSON lines are taken, so any other media type is a 415.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonLine } from '../../domain/seed-export.js';
import {
  countAnswer,
  emptyCounts,
  type ImportAnswer,
  importAnswerSchema,
  importSummarySchema,
} from '../../domain/seed-import.js';
import { seedCreateSchema } from '../../domain/seeds.js';
import type { SeedService } from '../../services/seeds.js';
import { assertUtf8Charset, bodyError } from '../body-encoding.js';
import { toProblem } from '../errors.js';
import { bodyTooLarge, readJsonLines } from '../ndjson-lines.js';
import { problemSchema } from '../responses.js';
import { noQuery, streamedBodyValidator } from '../schemas.js';

/** The media types of JSON lines in use; the first is the one answers are sent as. */
const JSON_LINES = ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines'];
/** A seed a line is a few KB; a line of 1 MiB is a mistake or an attack, rejected by number and skipped. */
export const MAX_IMPORT_LINE_BYTES = 1024 * 1024;

const answerLines = {
  description:
    'JSON lines, streamed as each group of lines commits: one SeedImportAnswer per non-blank line in line order, then one SeedImportSummary; an import stopped after answers began (the body over its bound, a backend down) ends with {error: Problem, summary} instead, every answer before it committed',
  content: {
    [JSON_LINES[0] as string]: {
      schema: z.union([
        importAnswerSchema,
        importSummarySchema,
        z.object({ error: problemSchema, summary: importSummarySchema.shape.summary }),
      ]),
    },
  },
};

export async function seedImportRoutes(
  app: FastifyInstance,
  deps: { seeds: SeedService; maxImportBytes: number },
) {
  const { seeds, maxImportBytes } = deps;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_LINES, (request: FastifyRequest, payload, done) => {
    try {
      assertUtf8Charset(request.headers['content-type']);
      // The stream itself: the route reads it line by line while it answers.
      done(null, payload);
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    '/import',
    {
      config: { scope: 'write' },
      // The body schema documents one line; the lines are checked one by one as they are read.
      validatorCompiler: streamedBodyValidator,
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary:
          'Import seeds from JSON lines (streamed both ways, idempotent by seed id, one answer per line)',
        description:
          'Each line is a seed as POST /seeds takes it (an export line is one). A new seed is created as a draft (status and facts of the line are ignored, as in POST); a seed that holds the line’s values is unchanged; one that differs gets a proposed revision, never an overwrite. Lines commit in groups of 2,000; a group’s answers are sent once it committed, so sending the file again is safe.',
        consumes: [JSON_LINES[0] as string],
        body: seedCreateSchema,
        response: { 200: answerLines },
      },
    },
    async (request, reply) => {
      const payload = request.body as unknown;
      if (!(payload instanceof Readable))
        throw bodyError(
          415,
          'FST_ERR_CTP_INVALID_MEDIA_TYPE',
          'send the seeds as JSON lines (application/x-ndjson)',
        );
      // One long request: the connection closes after it, so a body left unread (a stopped import) is not drained.
      reply.header('connection', 'close');
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxImportBytes) throw bodyTooLarge(maxImportBytes);
      const lines = readJsonLines(payload, { maxBytes: maxImportBytes, maxLineBytes: MAX_IMPORT_LINE_BYTES });
      const text = answerText(seeds.importLines(lines, request.principal?.name ?? 'anonymous'), request);
      // Until the first group is answered an error is still a problem with its own status (a 413, a 503).
      const first = await text.next();
      return (
        reply
          .type(`${JSON_LINES[0]}; charset=utf-8`)
          // Streamed as written: the declaration above documents the lines; the serialiser never sees them.
          .send(Readable.from(continued(first, text)) as never)
      );
    },
  );
}

/** The answers as text, a group at a time, then the summary; an error once answers went out is the last line. */
async function* answerText(groups: AsyncIterable<ImportAnswer[]>, request: FastifyRequest) {
  const counts = emptyCounts();
  let started = false;
  try {
    for await (const answers of groups) {
      let text = '';
      for (const answer of answers) {
        countAnswer(counts, answer);
        text += jsonLine(answer);
      }
      started = true;
      yield text;
    }
  } catch (error) {
    if (!started) throw error;
    yield jsonLine({ error: toProblem(error as Error, request), summary: counts });
    return;
  }
  yield jsonLine({ summary: counts });
}

async function* continued(first: IteratorResult<string>, rest: AsyncGenerator<string>) {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
