// Reads a response body into a Buffer: decodes gzip/deflate/br as it streams and stops the moment the decoded
// (or raw) size passes the cap, so neither a huge body nor a decompression bomb is ever held in memory.
import { pipeline, type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import zlib from 'node:zlib';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`response body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

export class BodyDecodeError extends Error {
  constructor(encoding: string, cause: unknown) {
    super(`could not decode the ${encoding} response body`, { cause });
    this.name = 'BodyDecodeError';
  }
}

/** The body was cut at the cap on purpose (`truncate`): ends the pipeline early, not a failure. */
class BodyCut extends Error {}

/**
 * Counts bytes through it and fails once they pass the cap. When truncating, it passes bytes up to the cap,
 * then ends the read at the next chunk.
 */
class ByteCap extends Transform {
  private seen = 0;
  cut = false;
  constructor(
    private readonly limit: number,
    private readonly truncate: boolean,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const before = this.seen;
    this.seen += chunk.length;
    if (this.cut) done(new BodyCut());
    else if (this.seen <= this.limit) done(null, chunk);
    else if (!this.truncate) done(new BodyTooLargeError(this.limit));
    else {
      this.cut = true;
      done(null, chunk.subarray(0, this.limit - before));
    }
  }
}

/** zlib with Z_SYNC_FLUSH forgives a body cut short, which browsers also accept. */
const SYNC = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** Raw deflate and zlib-wrapped deflate both travel as "deflate": sniff the first byte. */
class Inflate extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | null = null;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.inner === null) {
      const zlibWrapped = ((chunk[0] ?? 0) & 0x0f) === 8;
      this.inner = zlibWrapped ? zlib.createInflate(SYNC) : zlib.createInflateRaw(SYNC);
      this.inner.on('data', (out: Buffer) => this.push(out));
      this.inner.on('error', (err) => this.destroy(err));
    }
    this.inner.write(chunk, () => done());
  }
  override _flush(done: TransformCallback): void {
    if (this.inner === null) {
      done();
      return;
    }
    // 'end' comes after the last 'data', so everything decoded has been pushed by then.
    this.inner.once('end', () => done());
    this.inner.end();
  }
  override _destroy(err: Error | null, done: (error?: Error | null) => void): void {
    this.inner?.destroy();
    done(err);
  }
}

function decoderFor(encoding: string): Transform | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(SYNC);
    case 'deflate':
      return new Inflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

export interface BodyRead {
  body: Buffer;
  /** Cut at the cap (only with `truncate`). */
  truncated: boolean;
}

/**
 * `contentEncoding` is the raw header; codings are undone last-applied first. An unknown coding leaves the
 * bytes as they came (the caller still gets something to look at).
 */
export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  limit: number,
): Promise<Buffer> {
  return (await readBodyUpTo(body, contentEncoding, limit, false)).body;
}

/**
 * Like readBody; with `truncate`, a body over the cap resolves with its first `limit` decoded bytes (stopping
 * the read there) instead of failing. A compressed body whose raw bytes pass the cap first may give a little
 * less: whatever had been decoded when the read stopped.
 */
export function readBodyUpTo(
  body: Readable,
  contentEncoding: string | undefined,
  limit: number,
  truncate: boolean,
): Promise<BodyRead> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  const decoders = codings.map(decoderFor);
  const usable = decoders.every((d) => d !== null) ? (decoders as Transform[]) : [];
  if (usable.length === 0) return readPlain(body, limit, truncate);
  const chunks: Buffer[] = [];
  let size = 0;
  let sinkCut = false;
  const cap = new ByteCap(limit, truncate);
  return new Promise<BodyRead>((resolve, reject) => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        if (size + chunk.length > limit) {
          if (!truncate) return done(new BodyTooLargeError(limit));
          chunks.push(chunk.subarray(0, limit - size));
          size = limit;
          sinkCut = true;
          return done(new BodyCut());
        }
        size += chunk.length;
        chunks.push(chunk);
        done();
      },
    });
    const stages = [cap, ...usable, sink];
    // pipeline destroys every stage (and so aborts the socket) as soon as one fails, e.g. on the cap.
    pipeline(body, ...(stages as [Transform, ...Transform[], Writable]), (err) => {
      const truncated = sinkCut || cap.cut;
      if (!err || truncated) return resolve({ body: Buffer.concat(chunks, size), truncated });
      if (err instanceof BodyTooLargeError) return reject(err);
      const decodeFailed = usable.length > 0 && typeof (err as { errno?: unknown }).errno === 'number';
      reject(decodeFailed ? new BodyDecodeError(codings.join(', '), err) : err);
    });
  });
}

/**
 * A body with nothing to decode, read straight off the stream: a crawler reads thousands of bodies a second,
 * and a stream pipeline with its stages costs several times the read itself. Same cap, same outcomes.
 */
function readPlain(body: Readable, limit: number, truncate: boolean): Promise<BodyRead> {
  return new Promise<BodyRead>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | null, truncated = false) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      if (error) reject(error);
      else resolve({ body: Buffer.concat(chunks, size), truncated });
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length <= limit) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      // Over the cap: stop reading (destroying the body aborts the connection, as the pipeline does).
      if (truncate) {
        chunks.push(chunk.subarray(0, limit - size));
        size = limit;
        finish(null, true);
      } else {
        finish(new BodyTooLargeError(limit));
      }
      body.destroy();
    };
    body.on('data', onData);
    body.once('end', () => finish(null));
    body.once('error', (error) => finish(error));
    body.once('close', () => {
      // Every body closes after its end: an Error (and its stack) is built only for a close that came first.
      if (settled) return;
      const premature = Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
      finish(premature);
    });
  });
}
