// POST /datasets reads its body as a stream: each record is parsed, checked and written, serialised, to a spool
// file as it arrives, so an upload costs its largest record in memory, not its size. A few uploads at a time
// (the rest get a 503 with Retry-After), each capped at SEEDBED_MAX_DATASET_BYTES.

import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type DatasetMeta,
  datasetMetaSchema,
  datasetRecordSchema,
  serializeSpooledDataset,
} from '../domain/dataset.js';
import { createDatasetScanner, JsonScanError } from '../domain/dataset-scan.js';
import { type FieldError, ValidationError } from '../domain/errors.js';
import { assertUtf8Charset, bodyError, firstInvalidUtf8 } from './body-encoding.js';
import { checkJsonValue } from './json-body.js';
import { textFault } from './text-guard.js';

/** What the upload parser hands the route instead of the parsed dataset. */
export interface SpooledDataset {
  meta: DatasetMeta;
  recordCount: number;
  /** The other top-level members, in the order sent (unknown fields are kept). */
  extras: Array<[string, unknown]>;
  /** The records, serialised and comma-joined, without the brackets. */
  recordsPath: string;
  dir: string;
  bytes: number;
}

const MAX_RECORDS = 1_000_000;
/** Enough to fix a file in one round; a body with more errors is not worth listing in full. */
const MAX_ERRORS = 50;

function tooLarge(limit: number) {
  return bodyError(413, 'FST_ERR_CTP_BODY_TOO_LARGE', `the body is larger than ${limit} bytes`);
}

function scanProblem(error: JsonScanError) {
  if (error.kind === 'empty') return bodyError(400, 'FST_ERR_CTP_EMPTY_JSON_BODY', error.message);
  if (error.kind === 'invalid_utf8') return bodyError(400, 'SEEDBED_INVALID_UTF8', error.message);
  return bodyError(400, 'FST_ERR_CTP_INVALID_JSON_BODY', error.message);
}

function zodErrors(prefix: string, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

/** Reads, checks and spools one dataset body; the spool is removed on any failure. */
export async function spoolDataset(
  request: FastifyRequest,
  payload: Readable,
  options: { limit: number; tmpDir?: string },
): Promise<SpooledDataset> {
  const { limit } = options;
  assertUtf8Charset(request.headers['content-type']);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);

  const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), 'seedbed-upload-'));
  const recordsPath = join(dir, 'records.json');
  const spool: WriteStream = createWriteStream(recordsPath);
  // A failing disk is reported through the awaits below (drain, finish); this keeps it from being unhandled.
  spool.on('error', () => undefined);
  let meta: unknown;
  let records: { count: number } | { value: unknown } | null = null;
  const extras: Array<[string, unknown]> = [];
  const errors: FieldError[] = [];
  let pending: string[] = [];
  let count = 0;

  const scanner = createDatasetScanner({
    invalidUtf8At: firstInvalidUtf8,
    member(key, value) {
      if (key === '__proto__' || (key === 'constructor' && typeof value === 'object'))
        throw ValidationError.field(`body.${key}`, 'is a reserved key');
      const keyFault = textFault(key);
      if (keyFault) throw ValidationError.field('body', `has a key that ${keyFault}`);
      checkJsonValue(value, { path: [key], depth: 1 });
      if (key === 'meta') meta = value;
      else if (key === 'records') records = { value };
      else extras.push([key, value]);
    },
    recordsBegin() {
      records = { count: 0 };
    },
    record(value, index) {
      if (index >= MAX_RECORDS)
        throw ValidationError.field('body.records', `Too big: expected array to have <=${MAX_RECORDS} items`);
      checkJsonValue(value, { path: ['records', index], depth: 2 });
      const parsed = datasetRecordSchema.safeParse(value);
      if (!parsed.success) {
        errors.push(...zodErrors(`body.records.${index}`, parsed.error));
        if (errors.length >= MAX_ERRORS) throw new ValidationError(errors.slice(0, MAX_ERRORS));
        return;
      }
      if (errors.length === 0) pending.push((index === 0 ? '' : ',') + JSON.stringify(parsed.data));
      count = index + 1;
    },
  });

  try {
    let bytes = 0;
    // Leaving early must not destroy the request: that would reset the socket before the problem is sent.
    for await (const chunk of payload.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limit) throw tooLarge(limit);
      scanner.write(chunk);
      if (pending.length > 0) {
        const text = pending.join('');
        pending = [];
        // Backpressure: the disk sets the pace, never a queue of serialised records in memory.
        if (!spool.write(text)) await once(spool, 'drain');
      }
    }
    scanner.end();
    spool.end();
    await once(spool, 'finish');

    const metaResult = datasetMetaSchema.safeParse(meta);
    if (!metaResult.success) errors.unshift(...zodErrors('body.meta', metaResult.error));
    const recordsSeen = records as { count: number } | { value: unknown } | null;
    if (recordsSeen === null || 'value' in recordsSeen) {
      const result = z.array(z.unknown()).safeParse(recordsSeen?.value);
      if (!result.success) errors.push(...zodErrors('body.records', result.error));
    }
    if (errors.length > 0 || !metaResult.success) throw new ValidationError(errors);
    return { meta: metaResult.data, recordCount: count, extras, recordsPath, dir, bytes };
  } catch (error) {
    if (!spool.closed) {
      // Not once(): an in-flight write errors as the stream is destroyed, and that must not hide `error`.
      const closed = new Promise<void>((resolve) => spool.once('close', () => resolve()));
      spool.destroy();
      await closed;
    }
    await rm(dir, { recursive: true, force: true });
    if (error instanceof JsonScanError) throw scanProblem(error);
    throw error;
  }
}

/** The stored bytes of a spooled dataset with its completed meta (a fresh stream each call). */
export function spooledBody(spooled: SpooledDataset, meta: DatasetMeta): Readable {
  return serializeSpooledDataset(meta, () => createReadStream(spooled.recordsPath), spooled.extras);
}

export function removeSpool(spooled: SpooledDataset): Promise<void> {
  return rm(spooled.dir, { recursive: true, force: true });
}

/** A counting semaphore without a queue: an upload past the limit is told to come back, not parked. */
export function createUploadSlots(max: number) {
  let active = 0;
  return {
    get active() {
      return active;
    },
    /** A release function (idempotent), or null when every slot is taken. */
    tryAcquire(): (() => void) | null {
      if (active >= max) return null;
      active++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active--;
      };
    },
  };
}
