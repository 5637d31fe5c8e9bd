// An export of the seeds matching the list filters, as text pieces in order (header, the seeds, tail), so the
// HTTP answer streams and never holds every seed in memory.
import {
  csvHeader,
  csvRow,
  type ExportFormat,
  opmlHead,
  opmlOutlines,
  opmlTail,
} from '../domain/seed-export.js';
import type { Clock } from './common.js';
import { type SeedValues, seedColumnsOf, seedOfRow } from './seed-repository/rows.js';
import { seedJsonOf } from './seed-repository/seed-json.js';
import type { SeedFilter, SeedService } from './seeds.js';

/**
 * Pieces are grouped up to about this many characters: a write per seed would be slow for a big export, and a
 * few hundred KB a write keep the socket's writes few while the answer stays streamed.
 */
const PIECE = 256 * 1024;

/**
 * The export's pieces as bytes: a string piece would be read twice on its way out (the HTTP answer measures its
 * UTF-8 length for the chunk header, then encodes it), a fifth of a fast export's time.
 */
export async function* exportSeeds(
  seeds: Pick<SeedService, 'pages'>,
  format: ExportFormat,
  filter: SeedFilter,
  clock: Clock,
): AsyncGenerator<Buffer> {
  const text = textOf(format);
  let buffer =
    format === 'csv' ? csvHeader() : format === 'opml' ? opmlHead(exportTitle(filter), clock()) : '';
  for await (const rows of seeds.pages(filter)) {
    for (const row of rows) {
      buffer += text(row);
      if (buffer.length >= PIECE) {
        yield Buffer.from(buffer);
        buffer = '';
      }
    }
  }
  if (format === 'opml') buffer += opmlTail();
  if (buffer) yield Buffer.from(buffer);
}

/** One seed's text: a JSON line straight from the row (seed-json.ts), or a CSV row or OPML outlines of the seed. */
function textOf(format: ExportFormat): (row: SeedValues) => string {
  if (format === 'jsonl') return (row) => `${seedJsonOf(row)}\n`;
  const write = format === 'csv' ? csvRow : opmlOutlines;
  return (row) => write(seedOfRow(seedColumnsOf(row)));
}

/** "Seedbed seeds (active, sg, news)": what a feed reader shows for the imported list. */
export function exportTitle(filter: SeedFilter): string {
  const parts = [filter.status, filter.country, filter.category, filter.source_type].filter(Boolean);
  return parts.length > 0 ? `Seedbed seeds (${parts.join(', ')})` : 'Seedbed seeds';
}
