// An export of the seeds matching the list filters, as text pieces in order (header, one piece per seed, tail),
// so the HTTP answer streams and never holds every seed in memory.
import {
  csvHeader,
  csvRow,
  type ExportFormat,
  jsonLine,
  opmlHead,
  opmlOutlines,
  opmlTail,
} from '../domain/seed-export.js';
import type { Clock } from './common.js';
import type { SeedFilter, SeedService } from './seeds.js';

/** Pieces are grouped up to about this many characters: one write per seed would be slow for a big export. */
const PIECE = 64 * 1024;

export async function* exportSeeds(
  seeds: Pick<SeedService, 'stream'>,
  format: ExportFormat,
  filter: SeedFilter,
  clock: Clock,
): AsyncGenerator<string> {
  let buffer =
    format === 'csv' ? csvHeader() : format === 'opml' ? opmlHead(exportTitle(filter), clock()) : '';
  for await (const seed of seeds.stream(filter)) {
    buffer += format === 'jsonl' ? jsonLine(seed) : format === 'csv' ? csvRow(seed) : opmlOutlines(seed);
    if (buffer.length >= PIECE) {
      yield buffer;
      buffer = '';
    }
  }
  if (format === 'opml') buffer += opmlTail();
  if (buffer) yield buffer;
}

/** "Seedbed seeds (active, sg, news)": what a feed reader shows for the imported list. */
export function exportTitle(filter: SeedFilter): string {
  const parts = [filter.status, filter.country, filter.category, filter.source_type].filter(Boolean);
  return parts.length > 0 ? `Seedbed seeds (${parts.join(', ')})` : 'Seedbed seeds';
}
