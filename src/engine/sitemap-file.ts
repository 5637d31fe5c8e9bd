// Feeds one fetched sitemap body to the streaming reader: gunzips it as it goes when its bytes say gzip (whatever
// the headers and the extension said), stops at the file's cap, the tree's byte budget or its deadline.
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import zlib from 'node:zlib';
import { createSitemapReader, type SitemapFileSummary, type SitemapReaderEvents } from './sitemap-reader.js';

export interface FileBudget {
  /** Decompressed bytes this file may still give: the smaller of its own cap and what the tree has left. */
  maxBytes: number;
  /** Which of the two `maxBytes` came from, for the truncation reason. */
  limitedBy: 'file' | 'tree';
  /** Polled between chunks: the tree's time budget. */
  timeUp: () => boolean;
  /** Keep the first this many decompressed bytes (the evidence copy); 0 keeps none. */
  keepBytes: number;
}

export interface FileRead {
  summary: SitemapFileSummary;
  /** Decompressed bytes read. */
  bytes: number;
  gzip: boolean;
  /** Why the file was not read to its end; null when it was (or it stopped being worth reading). */
  stoppedBy: 'file' | 'tree' | 'time' | null;
  /** The gzip stream broke off or was corrupt: what it gave before still counts. */
  damaged: boolean;
  /** The first `keepBytes` decompressed bytes, or null when none were asked for. */
  kept: Buffer | null;
}

/** Decompressed slices handed to the parser at a time; between them the event loop gets a turn. */
const SLICE = 256 * 1024;

export function isGzip(body: Uint8Array): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

function* slices(body: Buffer): Generator<Buffer> {
  for (let at = 0; at < body.length; at += SLICE) yield body.subarray(at, at + SLICE);
}

export async function readSitemapFile(
  body: Buffer,
  events: SitemapReaderEvents,
  budget: FileBudget,
): Promise<FileRead> {
  const reader = createSitemapReader(events);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let bytes = 0;
  let stoppedBy: FileRead['stoppedBy'] = null;

  /** Hands one decompressed chunk on; false once reading should stop. */
  const take = (chunk: Buffer): boolean => {
    let piece = chunk;
    const room = budget.maxBytes - bytes;
    if (piece.length > room) {
      piece = piece.subarray(0, Math.max(0, room));
      stoppedBy = budget.limitedBy;
    }
    bytes += piece.length;
    if (keptBytes < budget.keepBytes) {
      const part = piece.subarray(0, budget.keepBytes - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    reader.write(piece);
    if (stoppedBy !== null || reader.done) return false;
    if (budget.timeUp()) {
      stoppedBy = 'time';
      return false;
    }
    return true;
  };

  const gzip = isGzip(body);
  let damaged = false;
  if (gzip) {
    // Z_SYNC_FLUSH at the end forgives a cut stream: everything that inflated before the cut is kept.
    const gunzip = zlib.createGunzip({ chunkSize: 64 * 1024, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const source = Readable.from(slices(body));
    source.on('error', () => undefined);
    source.pipe(gunzip);
    try {
      for await (const chunk of gunzip) if (!take(chunk as Buffer)) break;
    } catch {
      damaged = true;
    } finally {
      source.destroy();
      gunzip.destroy();
    }
  } else {
    for (const slice of slices(body)) {
      if (!take(slice)) break;
      await yieldToLoop();
    }
  }
  const summary = reader.end();
  return {
    summary,
    bytes,
    gzip,
    stoppedBy,
    damaged,
    kept: budget.keepBytes > 0 ? Buffer.concat(kept, keptBytes) : null,
  };
}
